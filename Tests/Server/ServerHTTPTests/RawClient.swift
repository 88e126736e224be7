import Glibc
import Synchronization
import Testing

/// A TCP client on loopback that writes exactly the bytes it is given (malformed framing
/// included) and reads what the server sends, from a chosen source address (all of
/// 127.0.0.0/8 is loopback, so each address is another client to the server).
final class RawClient: Sendable {
    let descriptor: Int32
    private let lastTimedOut = Mutex(false)
    /// Whether the last read ended because the server sent nothing for 20 s (not a close).
    var timedOut: Bool { lastTimedOut.withLock { $0 } }

    /// Connects to `port` from `source`, and sends `request` if given.
    init(port: UInt16, source: String = "127.0.0.1", sending request: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        if let request { try #require(send(request)) }
    }

    deinit { close(descriptor) }

    /// Writes `text` as UTF-8 bytes; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Writes `bytes`; false when the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }

    /// Everything the server sends until it closes the connection (or 20 s pass: `timedOut`),
    /// read on a client thread.
    func readAll() async -> String {
        await ClientThreads.run { self.readAllNow() }
    }

    /// One response, by its Content-Length, leaving the connection open; nil when the server
    /// closed it (or sent nothing for 20 s) first. Read on a client thread.
    func readResponse() async -> String? {
        await ClientThreads.run { self.readResponseNow() }
    }

    private func readAllNow() -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                data += buffer[..<count]
                continue
            }
            let timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            lastTimedOut.withLock { $0 = timedOut }
            break
        }
        return String(decoding: data, as: UTF8.self)
    }

    private func readResponseNow() -> String? {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while !data.ends(with: Array("\r\n\r\n".utf8)) {
            guard recv(descriptor, &byte, 1, 0) == 1 else { return nil }
            data.append(byte)
        }
        let head = String(decoding: data, as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: " ")) } ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var received = 0
        while received < length {
            let count = body.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + received, length - received, 0) }
            guard count > 0 else { return nil }
            received += count
        }
        return head + String(decoding: body, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes end with `suffix`.
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}

extension Substring {
    /// The text without `character` around it.
    func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
