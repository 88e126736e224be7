import Foundation
import Glibc
import KioskAdapters
import SharedSystem
import Testing

/// Where and how the control socket's file is made and removed: nothing is done through a name
/// that could change (issue 25), and nothing but the daemon's own socket is ever removed.
@Suite final class ControlSocketPlacementTests {
    let directory = temporaryDirectory("socket")

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func status(_ path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }

    private var entries: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] }

    @Test func theSocketIsMode0660InItsGroupAndNoScratchDirectoryIsLeft() throws {
        let path = directory + "/control.sock"
        let server = try ControlServer(path: path, group: getegid())
        defer { server.shutdown() }
        let socket = try #require(status(path))
        #expect(socket.st_mode & S_IFMT == S_IFSOCK && socket.st_mode & 0o7777 == 0o660 && socket.st_gid == getegid())
        #expect(entries == ["control.sock"])
        #expect(server.isReachable())
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the socket another group"))
    func anotherGroupIsSetInThePrivateDirectory() throws {
        let server = try ControlServer(path: directory + "/control.sock", group: 65534)
        defer { server.shutdown() }
        #expect(status(directory + "/control.sock")?.st_gid == 65534)
    }

    @Test func aLinkAtTheSocketsNameIsRefusedAndLeftAlone() throws {
        let victim = directory + "/victim"
        FileManager.default.createFile(atPath: victim, contents: Data("mine\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(symlink(victim, directory + "/control.sock") == 0)
        #expect(throws: SystemError.self) { try ControlServer(path: self.directory + "/control.sock", group: getegid()) }
        #expect((status(directory + "/control.sock")?.st_mode ?? 0) & S_IFMT == S_IFLNK)
        #expect((status(victim)?.st_mode ?? 0) & 0o7777 == 0o600)
        #expect(Set(entries) == ["control.sock", "victim"])
    }

    @Test func shutdownRemovesOnlyItsOwnSocket() throws {
        let path = directory + "/control.sock"
        let server = try ControlServer(path: path, group: nil)
        #expect(unlink(path) == 0 && mkfifo(path, 0o600) == 0)  // someone else's file now has the name
        #expect(!server.isReachable())
        server.shutdown()
        #expect((status(path)?.st_mode ?? 0) & S_IFMT == S_IFIFO, "another file with the socket's name stays")
    }

    @Test func aSocketWhoseDirectoryWasMovedIsNotReachable() throws {
        let out = directory + "/out"
        #expect(mkdir(out, 0o755) == 0)
        let server = try ControlServer(path: out + "/control.sock", group: nil)
        #expect(rename(out, directory + "/moved") == 0 && mkdir(out, 0o755) == 0)
        #expect(!server.isReachable())
        server.shutdown()
        #expect(status(directory + "/moved/control.sock") == nil, "its own socket, in the moved directory, is removed")
    }

    @Test func scratchDirectoriesOfAKilledBinderAreSwept() throws {
        // A pid that cannot be alive (above pid_max's ceiling) left its private directory.
        let stale = directory + "/.control.sock.2147483600.12345.bind"
        #expect(mkdir(stale, 0o700) == 0)
        FileManager.default.createFile(atPath: stale + "/socket", contents: nil)
        let others = directory + "/.control.sock.bind"  // not of that shape: someone else's
        #expect(mkdir(others, 0o700) == 0)
        let server = try ControlServer(path: directory + "/control.sock", group: nil)
        defer { server.shutdown() }
        #expect(Set(entries) == ["control.sock", ".control.sock.bind"])
    }
}
