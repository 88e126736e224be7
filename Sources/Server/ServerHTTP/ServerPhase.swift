/// Where a listener is in its life: serving; draining (asked to stop: no new connection is
/// accepted, each answer closes its connection, the answers under way may still come); closing
/// (the drain's time is up: whatever still waits is answered 503 now, nothing sleeps again).
enum ServerPhase {
    case serving
    case draining
    case closing
}
