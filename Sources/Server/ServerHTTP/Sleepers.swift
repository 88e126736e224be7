/// What sleeps in a listener (libmicrohttpd's suspended connections) and must be woken before
/// it stops: requests waiting for their answer, streams waiting for their next part. Kept with
/// the phase under one lock, so a connection never goes to sleep once closing began.
struct Sleepers {
    var phase = ServerPhase.serving
    var requests: [ObjectIdentifier: RequestState] = [:]
    var streams: [ObjectIdentifier: StreamBox] = [:]
}
