
/// What happened to the daemon: the shell turns descriptors into these and hands each to
/// `DaemonCore.handle(_:at:)` with the wall-clock time it read. Readings the core decides on
/// (the clock's synchronisation) arrive in the events, taken by the shell as they happen: the
/// core reads no clock and no kernel state of its own.
public enum DaemonEvent: Equatable, Sendable {
    /// The daemon starts: issue and write the first code; `clock` is the clock's
    /// synchronisation read now.
    case started(clock: ClockSync)
    /// The timer fired; `clockWasSet` when it fired because someone set the wall clock;
    /// `clock` is the clock's synchronisation read now.
    case tick(clockWasSet: Bool, clock: ClockSync)
    /// A signal arrived.
    case signal(DaemonSignal)
    /// A control request line from an admitted peer.
    case request(line: String, peer: ControlPeer)
    /// The control socket turned `count` more peers away (counted at once); `notice` is its
    /// rate-limited log text when one is due (one peer named, the others since the last counted).
    case refused(count: Int, notice: String?)
    /// The configuration was read again (after `.reloadConfiguration`), and the clock's
    /// synchronisation with it (require-clock-sync may have changed).
    case reloaded(DaemonSetup, clock: ClockSync)
    /// Reading the configuration again failed; the message says where and why.
    case reloadFailed(message: String)
    /// The last `.writeOutputs` put every file in place.
    case outputsWritten
    /// The last `.writeOutputs` replaced nothing; the reason names the file and the error.
    case outputsFailed(reason: String)
    /// The output directory was removed, replaced, or had its owner or mode changed by someone
    /// else: nothing is known to be on disk (the next write checks the directory again).
    case outputsGone
    /// Someone removed output files (a cleaner, or `rm -rf` on its way through the directory,
    /// whose own removal may follow or, while anyone holds it open, never be heard of): nothing
    /// is known to be on disk.
    case outputsRemoved
    /// The textfile collector's copy of `metrics.prom` (`metrics-dir`) was written into
    /// `directory`, or not (`failure` says why), as part of the write in flight.
    case metricsCopied(directory: String, failure: String?)
    /// The timer could not be armed (the loop cannot wake again); the reason says why.
    case timerFailed(reason: String)
    /// The last `.saveSettings` is on disk (written and synced).
    case settingsSaved
    /// The last `.saveSettings` failed; the old state file is as it was.
    case settingsNotSaved(reason: String)
    /// The control socket's file is gone.
    case socketGone
    /// The control socket was bound again (after `.rebindSocket`).
    case socketRebound
    /// Binding the control socket again failed (after `.rebindSocket`); the reason says why.
    case socketRebindFailed(reason: String)
}

/// The signals the daemon handles.
public enum DaemonSignal: String, Equatable, Sendable {
    /// SIGTERM: stop.
    case terminate = "SIGTERM"
    /// SIGINT: stop.
    case interrupt = "SIGINT"
    /// SIGHUP: reload the config file and the secret.
    case hangup = "SIGHUP"
    /// SIGUSR1: a shake.
    case user1 = "SIGUSR1"
}

/// Who sent a control request (from `SO_PEERCRED`).
public struct ControlPeer: Equatable, Sendable {
    /// The peer's user id.
    public var uid: UInt32
    /// The peer's process id.
    public var pid: Int32

    /// Creates a peer.
    public init(uid: UInt32, pid: Int32) {
        self.uid = uid
        self.pid = pid
    }
}
