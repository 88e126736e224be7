@testable import SharedSystem
import Foundation
import Glibc
import Testing

@Suite struct TemporarySweepTests {
    let directory = temporaryDirectory("sweep")

    @Test func recognisesExactlyOurTemporaryNames() {
        let name = AtomicFile.temporaryName(for: "current.json", pid: 123, random: 4_294_967_295)
        #expect(name == ".current.json.123.4294967295.tmp")
        let parsed = AtomicFile.parseTemporaryName(name)
        #expect(parsed?.stem == "current.json" && parsed?.pid == 123)
        for other in [".settings.tmp", ".settings.1.tmp", ".settings.x.1.tmp", "settings.1.2.tmp", ".settings.1.2.tmp.bak",
                      ".settings.1.99999999999.tmp", ".settings.-1.2.tmp", ".settings.0.2.tmp", "..1.2.tmp", ".settings.1..tmp"] {
            #expect(AtomicFile.parseTemporaryName(other) == nil, "\(other)")
        }
    }

    @Test func removesDeadWritersTemporariesOnlyForTheNamedFiles() throws {
        let dead = deadPID(), alive = getppid()
        let ours = [".settings.\(dead).1.tmp", ".secret.\(dead).2.tmp", ".settings.\(getpid()).3.tmp"]
        let theirs = [".settings.\(alive).4.tmp", ".other.\(dead).5.tmp", ".settings.tmp", "settings"]
        for name in ours + theirs { try "x".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8) }
        mkdir(directory + "/.settings.\(dead).6.tmp", 0o700)
        let removed = AtomicFile.removeTemporaries(of: [directory + "/settings", directory + "/secret"])
        #expect(Set(removed) == Set(ours.map { directory + "/" + $0 }))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == Set(theirs + [".settings.\(dead).6.tmp"]))
    }

    @Test func theTemporaryOfAWriteHasTheSweptShape() throws {
        // A writer killed mid-write leaves exactly this shape; simulate with a planted one.
        let planted = directory + "/" + AtomicFile.temporaryName(for: "current.png", pid: deadPID(), random: 9)
        try "half".write(toFile: planted, atomically: false, encoding: .utf8)
        try AtomicFile.write("whole", to: directory + "/current.png")
        #expect(AtomicFile.removeTemporaries(in: directory, for: ["current.png"]) == [planted])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["current.png"])
    }

    /// A PID no process has now: a child that already exited.
    private func deadPID() -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try! child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }
}
