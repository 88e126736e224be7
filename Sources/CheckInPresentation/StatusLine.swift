/// The one-line summary for systemd's `STATUS=` and log lines.
public enum StatusLine {
    /// e.g. `DEMO 12현34규 seq 0, expires in 7s` or `paused` or `degraded: cannot write …`.
    public static func text(for state: CheckInState, venue: String) -> String {
        var line: String
        switch state.phase {
        case .showing(let code):
            line = "\(venue) \(code.safeNumber) seq \(code.sequence), expires in \(state.secondsLeft)s"
        case .paused:
            line = "\(venue) paused"
        case .stopped:
            line = "\(venue) stopping"
        }
        if let reason = state.health.reason { line += "; degraded: \(reason)" }
        return line
    }
}
