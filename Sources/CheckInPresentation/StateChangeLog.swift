/// The log as a view of the state: one line per change worth knowing about, never per second.
public enum StateChangeLog {
    /// The lines for what changed between two states.
    public static func lines(from old: CheckInState, to new: CheckInState) -> [(LogLevel, String)] {
        var lines: [(LogLevel, String)] = []
        if old.settings.shake != new.settings.shake { lines.append((.notice, "shake mode \(new.settings.shake.rawValue)")) }
        if old.settings.refresh != new.settings.refresh { lines.append((.notice, "refresh mode \(new.settings.refresh.rawValue)")) }
        if old.health != new.health {
            if let reason = new.health.reason {
                lines.append((.warning, "degraded: \(reason); keeping the last good files and retrying"))
            } else {
                lines.append((.notice, "healthy again: outputs are current"))
            }
        }
        // Regular rotations are the daemon's heartbeat, not news; forced ones are.
        if let code = new.code, code.sequence > 0, code != old.code {
            lines.append((.info, "issued a fresh code on request (seq \(code.sequence))"))
        }
        return lines
    }
}
