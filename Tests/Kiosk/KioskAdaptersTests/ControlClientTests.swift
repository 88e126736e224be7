import Foundation
import Glibc
import KioskAdapters
import SharedJSON
import SharedSystem
import Synchronization
import Testing

/// `ControlClient` against a stand-in daemon that answers each connection from a script.
@Suite struct ControlClientTests {
    /// A fresh directory for each test's socket.
    let directory = temporaryDirectory("client")

    /// What the daemon says to a connection it evicts to make room for newer ones.
    static let eviction = "busy: all 64 control connections are taken by clients that sent no request; this one waited longest, try again"
    /// The whole reply line of an eviction.
    static let evicted = ControlErrorReply.text(eviction, code: "busy")

    @Test func anEvictedRequestIsSentAgainAndAnswered() throws {
        let daemon = ScriptedDaemon(at: directory + "/control.sock", replies: [Self.evicted, Self.evicted, #"{"ok":true}"#])
        #expect(try ControlClient.send("get", to: daemon.path, peer: nil) == #"{"ok":true}"#)
        #expect(daemon.requests() == ["get", "get", "get"])
    }

    @Test func evictedEveryTimeIsBusyAfterTheLastAttempt() {
        // Exactly as many evictions as attempts: one attempt more would wait for a reply in vain.
        let daemon = ScriptedDaemon(at: directory + "/control.sock",
                                    replies: Array(repeating: Self.evicted, count: ControlClient.attemptsWhenEvicted))
        #expect(throws: ControlClient.Failure.busy(path: daemon.path, reason: Self.eviction)) {
            try ControlClient.send("shake", to: daemon.path, peer: nil)
        }
        #expect(daemon.requests() == Array(repeating: "shake", count: ControlClient.attemptsWhenEvicted))
    }

    @Test func anAnswerThatIsARefusalIsNotSentAgain() throws {
        let refusal = ControlErrorReply.text("refresh is paused", code: "paused")
        let daemon = ScriptedDaemon(at: directory + "/control.sock", replies: [refusal])  // a second attempt would wait in vain
        #expect(try ControlClient.send("refresh now", to: daemon.path, peer: nil) == refusal)
        #expect(daemon.requests() == ["refresh now"])
    }
}

/// A listening Unix socket served by a thread: each connection's request line is read and
/// answered with the next scripted reply; the thread ends with the script, or when no client
/// comes for 30 seconds (a client that gave up early: the test then fails, it does not hang).
final class ScriptedDaemon: Sendable {
    /// The socket's path.
    let path: String
    /// The listening socket.
    private let listener: Int32
    /// The request lines read so far.
    private let read = Mutex<[String]>([])
    /// Signalled when the thread is done with the script.
    private let done = DispatchSemaphore(value: 0)

    /// Listens at `path` and starts answering connections with `replies`, in order.
    init(at path: String, replies: [String]) {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(bound == 0 && listen(listener, 8) == 0, "bind/listen: \(errno)")
        Thread { [self] in
            for reply in replies {
                guard let ready = try? Poller.wait(readable: [listener], timeoutMilliseconds: 30_000), !ready.isEmpty else { break }
                let client = accept(listener, nil, nil)
                var line = [UInt8]()
                var byte: UInt8 = 0
                while Glibc.read(client, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { line.append(byte) }
                read.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
                _ = Array((reply + "\n").utf8).withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
            done.signal()
        }.start()
    }

    /// The request lines read, once the script is done (or given up on).
    func requests() -> [String] {
        done.wait()
        close(listener)
        return read.withLock { $0 }
    }
}
