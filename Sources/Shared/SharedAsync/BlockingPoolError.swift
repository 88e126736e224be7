/// Why `BlockingPool.run` did not return the work's value: the pool refused the work, or the
/// work ran and threw. A refused work never ran, not even in part.
public enum BlockingPoolError<Failure: Error>: Error {
    /// The pool was shut down (or is shutting down) before the work was handed to it.
    case closed
    /// The calling task was cancelled while the work waited in the queue: it was taken out.
    case cancelled
    /// The work ran and threw `Failure`.
    case failed(Failure)

    /// The refusal alone (`closed` or `cancelled`), nil for a failure of the work.
    public var refusal: BlockingPoolError<Never>? {
        switch self {
        case .closed: .closed
        case .cancelled: .cancelled
        case .failed: nil
        }
    }
}

extension BlockingPoolError: Equatable where Failure: Equatable {}

extension BlockingPoolError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .closed: "the blocking pool is shut down"
        case .cancelled: "the task was cancelled before its blocking work began"
        case .failed(let failure): "\(failure)"
        }
    }
}
