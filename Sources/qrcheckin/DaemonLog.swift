import CheckInData
import CheckInPresentation

/// The log as a view of the state: one line per change worth knowing about, never per second.
enum DaemonLog {
    /// Logs what changed between two states.
    static func changes(from old: CheckInState, to new: CheckInState, logger: Logger) {
        if old.settings.shake != new.settings.shake { logger.notice("shake mode \(new.settings.shake.rawValue)") }
        if old.settings.refresh != new.settings.refresh { logger.notice("refresh mode \(new.settings.refresh.rawValue)") }
        if old.health != new.health {
            if let reason = new.health.reason {
                logger.warning("degraded: \(reason); keeping the last good files and retrying")
            } else {
                logger.notice("healthy again: outputs are current")
            }
        }
        // Regular rotations are the daemon's heartbeat, not news; forced ones are.
        if let code = new.code, code.sequence > 0, code != old.code {
            logger.info("issued a fresh code on request (seq \(code.sequence))")
        }
    }
}
