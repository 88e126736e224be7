import Dispatch
import ServerHTTPTypes
import Synchronization

/// An export's body between the thread that reads the ledger (the producer) and the HTTP
/// adapter that sends it (the consumer): at most `depth` parts of up to 64 KB wait between
/// them, so an export of any size takes constant memory, and a slow client slows the reader
/// down instead of filling memory. When the client goes, the producer is told at its next part.
final class ExportStream: HTTPBodyStream {
    /// Bytes a part holds before it is handed over.
    static let partBytes = 64 * 1024
    private let parts = Mutex<[[UInt8]]>([])
    private let slots: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private let closed = Atomic<Bool>(false)
    /// What the consumer took but could not send yet, and whether the end was seen.
    private let consumer = Mutex<(left: [UInt8], ended: Bool)>(([], false))

    init(depth: Int = 4) {
        // Made at 0 and raised: libdispatch traps when a semaphore is freed below the value it
        // was made with, which a stream closed early (parts never taken) would be.
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<depth { slots.signal() }
    }

    /// Whether the client went away before the end.
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    // MARK: producer

    /// Hands `part` over, waiting while `depth` parts wait; false when the client is gone.
    func send(_ part: [UInt8]) -> Bool {
        guard !isClosed else { return false }
        slots.wait()
        guard !isClosed else { return false }
        parts.withLock { $0.append(part) }
        ready.signal()
        return true
    }

    /// The end of the body.
    func finish() {
        parts.withLock { $0.append([]) }
        ready.signal()
    }

    // MARK: consumer (the HTTP adapter's thread)

    func read(max: Int) -> [UInt8] {
        consumer.withLock { state in
            if state.left.isEmpty && !state.ended {
                // The producer makes a part in well under a second; a minute means it is stuck.
                guard ready.wait(timeout: .now() + 60) == .success else {
                    state.ended = true
                    return
                }
                let part = parts.withLock { $0.removeFirst() }
                slots.signal()
                if part.isEmpty { state.ended = true } else { state.left = part }
            }
        }
        return consumer.withLock { state in
            let taken = Array(state.left.prefix(max))
            state.left.removeFirst(taken.count)
            return taken
        }
    }

    func close() {
        closed.store(true, ordering: .releasing)
        slots.signal()  // a producer waiting for a slot sees the close
    }
}
