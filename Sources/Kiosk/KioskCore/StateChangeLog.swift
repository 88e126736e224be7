import SharedDomain

/// The log as a view of the state: one line per change worth knowing about, never per second.
public enum StateChangeLog {
    /// The lines for what changed between two states. `stateUnsaved`: the daemon's state cannot
    /// be saved (the outputs are written, and say paused), an error rather than a warning.
    public static func lines(from old: CheckInState, to new: CheckInState, stateUnsaved: Bool = false) -> [(LogLevel, String)] {
        var lines: [(LogLevel, String)] = []
        if old.settings.shake != new.settings.shake { lines.append((.notice, "shake mode \(new.settings.shake.rawValue)")) }
        if old.settings.refresh != new.settings.refresh { lines.append((.notice, "refresh mode \(new.settings.refresh.rawValue)")) }
        if old.health != new.health {
            if let reason = new.health.reason, stateUnsaved {
                lines.append((.error, "degraded: \(reason); retrying every second"))
            } else if let reason = new.health.reason {
                lines.append((.warning, "degraded: \(reason); keeping the last good files and retrying"))
            } else {
                lines.append((.notice, "healthy again: outputs are current"))
            }
        }
        if old.clock.synchronized != new.clock.synchronized {
            switch new.clock.synchronized {
            case false?: lines.append((.warning, clockUnsynchronized(new.clock)))
            case true?: lines.append((.notice, "the clock is synchronised" + (new.clock.maxErrorSeconds.map { " (max error \($0)s)" } ?? "")))
            case nil: break
            }
        }
        // Waiting for a clock that moved back (or a lost record) is said by the degraded line.
        if new.phase == .waitingForClock && old.phase != .waitingForClock && new.health.reason == nil {
            lines.append((.notice, "waiting for the clock to synchronise (require-clock-sync = yes): no code is shown"))
        } else if old.phase == .waitingForClock, let code = new.code {
            lines.append((.notice, "the clock is synchronised: showing codes from window \(code.window)"))
        }
        // Forced rotations are logged with their cause where they are issued (DaemonCore).
        return lines
    }

    /// The warning logged when the clock is (or becomes) unsynchronised.
    public static func clockUnsynchronized(_ clock: ClockSync) -> String {
        "the clock is not synchronised" + (clock.maxErrorSeconds.map { " (max error \($0)s)" } ?? "")
            + ": verifiers may reject codes as expired; see docs/DAEMON.md, Clock trust"
    }
}
