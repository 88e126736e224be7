/// Where the daemon is in its life, and so what may follow: one value instead of flags that
/// could disagree (ready but stopping, exited but still writing).
///
/// `starting` → `running` (the first set of outputs is on disk: READY=1) → `stopping` (SIGTERM
/// or SIGINT: the stopped state is being written) → `exited(.stopped)`. A daemon may stop before
/// it was ever ready (`starting` → `stopping`), and a timer that cannot be armed ends any state
/// but `exited` at once (`exited(.software)`). Nothing follows `exited`.
public enum DaemonLifecycle: Equatable, Sendable {
    /// Started; no full set written yet, systemd not told READY.
    case starting
    /// Serving: the first set is on disk.
    case running
    /// Stopping: the stopped state is being written; then the loop ends.
    case stopping
    /// The loop is over, with this status.
    case exited(DaemonExit)

    /// Whether SIGTERM or SIGINT has been handled (or the loop is over).
    public var isStopping: Bool {
        switch self {
        case .starting, .running: false
        case .stopping, .exited: true
        }
    }

    /// Whether the loop is over: no event is handled any more.
    public var hasExited: Bool {
        if case .exited = self { true } else { false }
    }

    /// A full set is on disk: `starting` becomes `running`. True when that just happened
    /// (READY=1 is due).
    public mutating func becameReady() -> Bool {
        guard self == .starting else { return false }
        self = .running
        return true
    }

    /// SIGTERM or SIGINT: `starting` or `running` becomes `stopping`. False when already
    /// stopping or over (a second signal changes nothing).
    public mutating func stop() -> Bool {
        guard !isStopping else { return false }
        self = .stopping
        return true
    }

    /// The loop ends with `status` (from any state but `exited`).
    public mutating func exit(_ status: DaemonExit) {
        guard !hasExited else { return }
        self = .exited(status)
    }
}
