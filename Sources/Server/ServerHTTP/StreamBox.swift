import CMicroHTTPD
import Glibc
import ServerHTTPTypes
import Synchronization

/// A streamed body as libmicrohttpd's callbacks hold it (retained until the response is
/// freed), with the connection it goes out on. When the stream has no part ready, the
/// connection sleeps (suspended from inside the content reader, which libmicrohttpd 0.9.75
/// allows: its content reader may suspend its connection and return 0, and is called again once
/// resumed) until the stream says a part is ready; no thread waits for it.
///
/// `@unchecked Sendable` because it holds libmicrohttpd's connection pointer: suspended only on
/// libmicrohttpd's thread in the content reader, resumed from any thread, both under `state`'s
/// lock, which orders a suspend before its resume.
final class StreamBox: @unchecked Sendable {
    private struct State {
        /// The connection is suspended, waiting for a part.
        var asleep = false
        /// A part became ready while the reader was not asleep: the next read must not sleep.
        var woken = false
        /// The server is closing: the body ends here, cut short.
        var cut = false
    }

    let stream: any HTTPBodyStream
    private let connection: ConnectionHandle
    private let state = Mutex(State())
    /// What is left of the last part taken (parts may be larger than libmicrohttpd asks for).
    private var left: [UInt8] = []
    /// Told when the connection goes to sleep (tests).
    private let suspended: (@Sendable () -> Void)?

    init(_ stream: any HTTPBodyStream, connection: ConnectionHandle, suspended: (@Sendable () -> Void)?) {
        self.stream = stream
        self.connection = connection
        self.suspended = suspended
    }

    /// libmicrohttpd asks for up to `max` bytes into `buffer` (on its thread): the bytes
    /// written, 0 after suspending the connection, or the end (of the stream, or cut short).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if left.isEmpty {
            if state.withLock({ $0.cut }) { return Self.endWithError }
            switch stream.next(max: max, whenReady: { [self] in wake() }) {
            case .bytes(let bytes): left = bytes
            case .end: return Self.endOfStream
            case .notYet:
                let slept = state.withLock { state in
                    if state.cut { return false }
                    guard !state.woken else {
                        state.woken = false
                        return false
                    }
                    state.asleep = true
                    MHD_suspend_connection(connection.pointer)
                    return true
                }
                if slept { suspended?() }
                return state.withLock { $0.cut } ? Self.endWithError : 0
            }
        }
        let count = min(max, left.count)
        left.withUnsafeBytes { _ = memcpy(buffer, $0.baseAddress!, count) }
        left.removeFirst(count)
        return count
    }

    /// The stream has a part (or its end) ready: wakes the connection if it sleeps.
    private func wake() {
        state.withLock { state in
            if state.asleep {
                state.asleep = false
                MHD_resume_connection(connection.pointer)
            } else {
                state.woken = true
            }
        }
    }

    /// The server is closing: the body is cut short, and a sleeping connection woken to end.
    func cut() {
        state.withLock { state in
            state.cut = true
            if state.asleep {
                state.asleep = false
                MHD_resume_connection(connection.pointer)
            }
        }
    }

    /// `MHD_CONTENT_READER_END_OF_STREAM`.
    static let endOfStream = -1
    /// `MHD_CONTENT_READER_END_WITH_ERROR`: the connection is closed, the body cut short.
    static let endWithError = -2
}

/// libmicrohttpd asks for the next part of a streamed body: up to `max` bytes into `buffer`.
let streamReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let buffer else { return StreamBox.endWithError }
    return Unmanaged<StreamBox>.fromOpaque(context!).takeUnretainedValue().read(into: buffer, max: max)
}

/// libmicrohttpd frees a streamed response: sent, or its connection closed.
let streamClosed: MHD_ContentReaderFreeCallback = { context in
    Unmanaged<StreamBox>.fromOpaque(context!).takeRetainedValue().stream.close()
}
