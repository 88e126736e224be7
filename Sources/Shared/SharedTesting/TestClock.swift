import Synchronization

/// A clock that moves only when a test moves it (swift-clocks' `TestClock`): what a deadline,
/// a schedule or a grace period sleeps on in tests, so an hour passes in microseconds. A test
/// waits until the code under test is asleep on it (`sleepers`), then `advance`s it; every
/// sleep due by then returns, the earliest deadline first.
public final class TestClock: Clock, Sendable {
    /// A moment on the test clock: the time since it started.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock started.
        public let offset: Duration

        /// The instant `offset` after the clock started.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
    }

    private let state = Mutex(State())

    /// A clock at offset zero.
    public init() {}

    /// The time now: only `advance` changes it.
    public var now: Instant { state.withLock { $0.now } }

    /// Any duration can be slept.
    public var minimumResolution: Duration { .zero }

    /// The tasks asleep on the clock now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// Returns once the clock reaches `deadline` (at once if it has); throws `CancellationError`
    /// when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due = state.withLock { state in
                    guard state.now < deadline else { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if due { continuation.resume() }
            }
        } onCancel: {
            let cancelled: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes every sleeper due by then, earliest first.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
