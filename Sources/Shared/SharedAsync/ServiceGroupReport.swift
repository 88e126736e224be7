/// How a `ServiceGroup`'s run ended: why it stopped and how each service ended, in the order
/// they ended.
public struct ServiceGroupReport: Sendable {
    /// Why the group stopped.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// A graceful-shutdown signal arrived.
        case signal(UnixSignal)
        /// `triggerGracefulShutdown()` was called.
        case requested
        /// This service returned or threw before anyone asked it to stop.
        case serviceEnded(String)
        /// The task running the group was cancelled: every service was cancelled at once.
        case cancelled

        public var description: String {
            switch self {
            case .signal(let signal): "\(signal)"
            case .requested: "requested"
            case .serviceEnded(let name): "\(name) ended"
            case .cancelled: "cancelled"
            }
        }
    }

    /// How one service ended.
    public struct Ending: Sendable {
        /// When it ended, as the group saw it.
        public enum Kind: Sendable, Equatable {
            /// Before the group asked anyone to stop (its ending started the shutdown).
            case early
            /// After the group began stopping, before the deadline: in time.
            case stopped
            /// Cancelled: still running at the deadline or at a second signal, or the task running
            /// the group was cancelled.
            case cancelled
        }

        /// The service's name.
        public let name: String
        /// When it ended.
        public let kind: Kind
        /// What its `run()` threw, if it threw.
        public let error: (any Error)?
    }

    /// Why the group stopped.
    public let reason: Reason
    /// Every service, in the order they ended.
    public let endings: [Ending]

    /// The services that stopped in time when asked, in the order they stopped.
    public var stopped: [String] { endings.filter { $0.kind == .stopped }.map(\.name) }
    /// The services cancelled at the deadline.
    public var cancelled: [String] { endings.filter { $0.kind == .cancelled }.map(\.name) }
    /// Whether everything went as it should: stopped on a signal or request, every service in
    /// time and without an error. `serve` exits 0 only then.
    public var isClean: Bool {
        switch reason {
        case .signal, .requested: endings.allSatisfy { $0.kind == .stopped && $0.error == nil }
        case .serviceEnded, .cancelled: false
        }
    }
}
