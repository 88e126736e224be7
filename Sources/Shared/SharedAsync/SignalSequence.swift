import CLinux
import Glibc
import SharedSystem

/// Signals as an `AsyncSequence` (swift-service-lifecycle's `UnixSignalsSequence`): a
/// `SignalSource` (signalfd) read by a thread of its own that waits in `poll(2)` without a
/// timeout, so waiting for a signal occupies no thread of Swift's cooperative pool and polls
/// nothing. One consumer (an `AsyncStream` underneath); iterating ends when the consuming task
/// is cancelled, and the reader thread then ends too.
///
/// The signals must be blocked in every thread, or the kernel hands one to a thread that does
/// not block it: creating the sequence blocks them in the calling thread, Swift's and our own
/// threads block every signal, and the main thread must block them itself
/// (`UnixSignal.block`; `AsyncCommandLineTool` does so for an async command's `signals`). They
/// stay blocked when the sequence ends, as `SignalSource`'s do.
public final class SignalSequence: AsyncSequence, Sendable {
    /// Each element is a signal that arrived.
    public typealias Element = UnixSignal
    /// Waiting for signals cannot fail once the sequence exists.
    public typealias Failure = Never

    private let stream: AsyncStream<UnixSignal>
    private let reader: SignalReader

    /// Blocks `signals` in the calling thread and starts reading them.
    public init(_ signals: Set<UnixSignal>) throws(SystemError) {
        let source = try SignalSource(signals.map(\.rawValue).sorted())
        let wake = clinux_eventfd()
        guard wake >= 0 else { throw SystemError("create", path: "eventfd") }
        let reader = SignalReader(source: source, wake: FileDescriptor(owning: wake))
        let (stream, continuation) = AsyncStream.makeStream(of: UnixSignal.self)
        continuation.onTermination = { _ in reader.stop() }
        _ = try SystemThread.start(name: "signals") { reader.read(into: continuation) }
        self.stream = stream
        self.reader = reader
    }

    deinit {
        reader.stop()
    }

    /// The iterator of the one consumer.
    public func makeAsyncIterator() -> AsyncStream<UnixSignal>.Iterator {
        stream.makeAsyncIterator()
    }
}

/// The signalfd and the eventfd that stops its reader, owned together: the reader thread and
/// the sequence each hold it, and the descriptors close when both let go.
private final class SignalReader: Sendable {
    let source: SignalSource
    let wake: FileDescriptor

    init(source: consuming SignalSource, wake: consuming FileDescriptor) {
        self.source = source
        self.wake = wake
    }

    /// The reader thread's life: wait for a signal or the wake-up, hand on every signal read.
    /// Detached, as nothing waits for it: it ends on the wake-up.
    func read(into continuation: AsyncStream<UnixSignal>.Continuation) {
        SystemThread.detach(pthread_self())
        defer { continuation.finish() }
        let descriptors = [source.descriptor.rawValue, wake.rawValue]
        while true {
            let ready: Set<Int32>
            do {
                ready = try Poller.wait(readable: descriptors, timeoutMilliseconds: -1)
            } catch {
                return  // poll(2) fails only on bad arguments or no memory: nothing to retry
            }
            if ready.contains(wake.rawValue) { return }
            for signal in source.drain() { continuation.yield(UnixSignal(rawValue: signal)) }
        }
    }

    /// Wakes the reader to end it (more than once is harmless).
    func stop() {
        var one: UInt64 = 1
        _ = Glibc.write(wake.rawValue, &one, MemoryLayout<UInt64>.size)
    }
}
