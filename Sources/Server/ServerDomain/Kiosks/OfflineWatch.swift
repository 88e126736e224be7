/// Which kiosks turned offline since the last look: the server logs each once, at warning, when
/// it turns offline (and once at notice when it reports again), not at every look.
public struct OfflineWatch: Sendable {
    private var offline: Set<KioskKey> = []

    /// A watch that has seen no kiosk offline yet.
    public init() {}

    /// What changed since the last look, given every kiosk's state now: those that turned
    /// offline, and those offline before that report again (or were forgotten: not told).
    public mutating func look(_ states: [KioskKey: KioskState]) -> (turnedOffline: [KioskKey], back: [KioskKey]) {
        let now = Set(states.filter { $0.value == .offline }.keys)
        let turned = now.subtracting(offline).sorted()
        let back = offline.subtracting(now).filter { states[$0] != nil }.sorted()
        offline = now
        return (turned, back)
    }
}
