import SharedSystem

// Until the server moves onto SharedAsync's `Service` and `ServiceGroup` (issue 38),
// its parts keep the synchronous stop. A module's own declarations shadow the ones it imports,
// so `Service` here still means the legacy protocol and no other file had to change; the move
// deletes this file.
typealias Service = LegacyService
