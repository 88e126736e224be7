import Foundation
import Glibc
import KioskAdapters
import SharedDomain
import SharedSystem
import Testing

/// The control socket under abuse, driven by hand the way the daemon's poll loop drives it.
@Suite struct ControlServerTests {
    let directory = temporaryDirectory("control")

    private func connect(_ path: String, sending request: String? = nil) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(result == 0, "connect: \(errno)")
        if let request { _ = Array(request.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        return fd
    }

    private func reply(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    /// One loop turn: poll with no wait, then hand every ready descriptor to the server.
    private func turn(_ server: ControlServer, now: WallTime, answered: inout [String]) {
        let ready = (try? Poller.wait(readable: server.descriptors, timeoutMilliseconds: 0)) ?? []
        for fd in server.descriptors where ready.contains(fd) {
            server.handleReadable(fd, now: now, handle: { line, _ in answered.append(line); return "{\"ok\":true}" },
                                  refused: { _ in })
        }
        server.expire(now: now)
    }

    @Test func idleClientsAreEvictedOldestFirstAndARealRequestIsAnsweredAtOnce() throws {
        let server = try ControlServer(path: directory + "/control.sock", group: nil)
        defer { server.shutdown() }
        let idle = (0..<(ControlServer.maximumClients + 10)).map { _ in connect(server.path) }
        var answered: [String] = []
        for _ in 0..<10 { turn(server, now: WallTime(milliseconds: 0), answered: &answered) }
        // The ten oldest made room and were told why; the newest hold the slots.
        for fd in idle.prefix(10) { #expect(reply(fd).contains("\"code\":\"busy\"")) }
        for fd in idle.dropFirst(10) { #expect(reply(fd) == "") }
        #expect(server.descriptors.count == ControlServer.maximumClients + 1)

        // All slots taken: a client that sent its request is still answered on accept.
        let real = connect(server.path, sending: "get\n")
        turn(server, now: WallTime(milliseconds: 1), answered: &answered)
        #expect(answered == ["get"])
        #expect(reply(real) == "{\"ok\":true}\n")
        #expect(reply(idle[10]) == "", "an answered client takes no slot from anyone")

        // Idle clients time out within the request deadline.
        turn(server, now: WallTime(milliseconds: ControlServer.requestTimeoutMilliseconds + 1), answered: &answered)
        for fd in idle.dropFirst(10) { #expect(reply(fd).contains("timed out")) }
        #expect(server.descriptors.count == 1)
        (idle + [real]).forEach { close($0) }
    }

    @Test func aBacklogFloodIsTakenInBoundedTurns() throws {
        let server = try ControlServer(path: directory + "/control.sock", group: nil)
        defer { server.shutdown() }
        let idle = (0..<200).map { _ in connect(server.path) }
        var answered: [String] = []
        let ready = try Poller.wait(readable: server.descriptors, timeoutMilliseconds: 0)
        #expect(ready.contains(server.descriptors.last!), "the listener is polled even with clients waiting")
        turn(server, now: WallTime(milliseconds: 0), answered: &answered)
        #expect(server.descriptors.count == ControlServer.acceptsPerTurn + 1, "one turn accepts a bounded number")
        idle.forEach { close($0) }
    }
}
