import ServerHTTPTypes
import Synchronization

/// An export's body between the task that reads the ledger (the producer) and the HTTP adapter
/// that sends it (the consumer): at most `depth` parts of up to 64 KB wait between them, so an
/// export of any size takes constant memory, and a slow client slows the reader down (its task
/// waits, no thread does) instead of filling memory. When nothing is ready the adapter's
/// connection sleeps until a part is (`HTTPBodyStream.next`). When the client goes, the
/// producer is told at its next part.
final class ExportStream: HTTPBodyStream {
    /// Bytes a part holds before it is handed over.
    static let partBytes = 64 * 1024

    private struct State {
        /// Parts ready, oldest first.
        var parts: [[UInt8]] = []
        /// The producer said the body is complete.
        var finished = false
        /// The connection is gone.
        var closed = false
        /// The consumer waits for a part (its `whenReady`).
        var consumer: (@Sendable () -> Void)?
        /// The producer waits for room (`depth` parts wait).
        var producer: CheckedContinuation<Bool, Never>?
    }

    private let depth: Int
    private let state = Mutex(State())

    init(depth: Int = 4) {
        self.depth = depth
    }

    // MARK: producer

    /// Hands `part` over, waiting (suspended) while `depth` parts wait; false when the client is
    /// gone.
    func send(_ part: [UInt8]) async -> Bool {
        let room: Bool? = state.withLock { state in
            if state.closed { return false }
            return state.parts.count < depth ? true : nil
        }
        if room == false { return false }
        if room == nil {
            let open = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.closed { return false }
                    if state.parts.count < depth { return true }
                    state.producer = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
            guard open else { return false }
        }
        let wake: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.closed else { return nil }
            state.parts.append(part)
            defer { state.consumer = nil }
            return state.consumer
        }
        wake?()
        return true
    }

    /// The end of the body.
    func finish() {
        let wake: (@Sendable () -> Void)? = state.withLock { state in
            state.finished = true
            defer { state.consumer = nil }
            return state.consumer
        }
        wake?()
    }

    // MARK: consumer (the HTTP adapter, on its thread)

    func next(max: Int, whenReady: @escaping @Sendable () -> Void) -> HTTPBodyPart {
        let (part, room): (HTTPBodyPart, CheckedContinuation<Bool, Never>?) = state.withLock { state in
            if !state.parts.isEmpty {
                // At most `max`, as the protocol promises: the rest of a large part stays first.
                if max > 0, state.parts[0].count > max {
                    let head = Array(state.parts[0].prefix(max))
                    state.parts[0].removeFirst(max)
                    return (.bytes(head), nil)
                }
                defer { state.producer = nil }
                return (.bytes(state.parts.removeFirst()), state.producer)
            }
            if state.finished { return (.end, nil) }
            state.consumer = whenReady
            return (.notYet, nil)
        }
        room?.resume(returning: true)
        return part
    }

    func close() {
        let producer: CheckedContinuation<Bool, Never>? = state.withLock { state in
            state.closed = true
            state.consumer = nil
            defer { state.producer = nil }
            return state.producer
        }
        producer?.resume(returning: false)
    }
}
