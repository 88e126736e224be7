import SharedText
/// The one-line summary for systemd's `STATUS=`.
public enum StatusLine {
    /// e.g. `DEMO 12현34규 seq 0, expires at 2026-11-30T09:10:15Z`, `DEMO paused`, or with
    /// `; degraded: cannot write …`. It names the expiry time rather than counting down, so it
    /// changes only with the code and the daemon need not wake every second to keep it true.
    public static func text(for state: CheckInState, venue: String) -> String {
        var line: String
        switch state.phase {
        case .showing(let code):
            line = "\(venue) \(code.safeNumber) seq \(code.sequence), expires at \(UTCTime.iso8601(code.expiresAt))"
        case .paused:
            line = "\(venue) paused"
        case .stopped:
            line = "\(venue) stopping"
        case .waitingForClock:
            line = "\(venue) waiting for the clock to synchronise"
        }
        if let reason = state.health.reason { line += "; degraded: \(reason)" }
        if state.clock.isUnsynchronized && state.phase != .waitingForClock { line += "; warning: clock not synchronised" }
        return line
    }
}
