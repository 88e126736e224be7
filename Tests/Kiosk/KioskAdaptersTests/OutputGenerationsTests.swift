@testable import KioskAdapters
@testable import SharedSystem
import Foundation
import Glibc
import KioskCore
import Testing

/// The published set: one rename switches every file, the old set stays whole until replaced,
/// and what a killed writer leaves is swept at start.
@Suite struct OutputGenerationsTests {
    let directory = temporaryDirectory("generations")
    let names = ["current.png", "current.txt", "current.json"]

    func sink() -> DirectorySink {
        DirectorySink(directory: try! OutputDirectory(path: directory), generations: OutputGenerations(names: names, announced: "current.json"))
    }

    func set(_ tag: String, metrics: Bool = true) -> [OutputContent] {
        names.map { OutputContent(name: $0, bytes: Array("\($0) \(tag)".utf8)) }
            + (metrics ? [OutputContent(name: "metrics.prom", bytes: Array("metrics \(tag)".utf8))] : [])
    }

    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: directory + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    func entries(_ path: String = "") -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory + path)) ?? [])
    }

    func link(_ name: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)
    }

    @Test func everyFileIsReadAtItsOldPathThroughOneSwitch() throws {
        let sink = sink()
        try sink.replaceTogether(set("A"))
        #expect(names.map(read) == ["current.png A", "current.txt A", "current.json A"])
        #expect(read("metrics.prom") == "metrics A", "a file outside the set is replaced on its own")
        #expect(names.map(link) == ["current/current.png", "current/current.txt", "current/current.json"])
        #expect(link("current") == ".generations/1")
        try sink.replaceTogether(set("B"))
        #expect(link("current") == ".generations/2")
        #expect(names.map(read) == ["current.png B", "current.txt B", "current.json B"])
        try sink.replaceTogether(set("C"))
        #expect(entries("/.generations") == ["2", "3"], "the previous set is kept whole for slow readers, older ones go")
        #expect(entries() == Set(names + ["current", ".generations", "metrics.prom"]), "no temporaries")
        var status = stat()
        #expect(stat(directory + "/.generations/3", &status) == 0 && status.st_mode & 0o777 == 0o755)
        #expect(stat(directory + "/current.png", &status) == 0 && status.st_mode & 0o777 == 0o644)
    }

    @Test func aReaderHoldingTheSetSeesOneCodeInAllFiles() throws {
        let sink = sink()
        try sink.replaceTogether(set("A"))
        let held = open(directory + "/current", O_RDONLY | O_DIRECTORY)
        defer { close(held) }
        try sink.replaceTogether(set("B"))
        // The switch moved on; what the reader holds is the whole old set.
        let inHeld = names.map { name -> String in
            let fd = openat(held, name, O_RDONLY)
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 64)
            return String(decoding: buffer[..<Glibc.read(fd, &buffer, 64)], as: UTF8.self)
        }
        #expect(inHeld == ["current.png A", "current.txt A", "current.json A"])
    }

    @Test func aHealthUpdateWritesTheDocumentAloneAndKeepsTheOthers() throws {
        let sink = sink()
        try sink.replaceTogether(set("A"))
        var before = stat()
        stat(directory + "/current.png", &before)
        try sink.replaceTogether([OutputContent(name: "current.json", bytes: Array("current.json A degraded".utf8))])
        #expect(names.map(read) == ["current.png A", "current.txt A", "current.json A degraded"])
        var after = stat()
        stat(directory + "/current.png", &after)
        #expect(after.st_ino == before.st_ino, "linked, not copied")
    }

    @Test func aSetThatCannotBeWrittenLeavesTheCurrentOneWholeAndReplacesNothing() throws {
        let sink = sink()
        try sink.replaceTogether(set("A"))
        // Leftovers of every number the next set could take (root writes through any mode, so
        // this is how a unit test makes the generation fail; a full tmpfs is the e2e test's).
        for number in 2...65 { mkdir(directory + "/.generations/\(number)", 0o755) }
        #expect(throws: OutputSinkError.self) { try sink.replaceTogether(set("B")) }
        #expect(names.map(read) == ["current.png A", "current.txt A", "current.json A"])
        #expect(read("metrics.prom") == "metrics A", "none of the batch is replaced")
        #expect(!entries().contains { $0.hasSuffix(".tmp") })
        // A leftover number is skipped, not reused.
        rmdir(directory + "/.generations/65")
        try sink.replaceTogether(set("B"))
        #expect(link("current") == ".generations/65" && read("current.json") == "current.json B")
    }

    @Test func regularFilesOfAnOlderLayoutBecomeLinksAtTheFirstSet() throws {
        for name in names { try "old \(name)".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8) }
        try sink().replaceTogether(set("A"))
        #expect(names.map(link) == ["current/current.png", "current/current.txt", "current/current.json"])
        #expect(names.map(read) == ["current.png A", "current.txt A", "current.json A"])
    }

    @Test func aRemovedLinkComesBackAtTheNextSetOnceTheLayoutIsForgotten() throws {
        let sink = sink()
        try sink.replaceTogether(set("A"))
        unlink(directory + "/current.txt")
        sink.generations!.forgetLayout()  // the daemon's inotify watch says a file was removed
        try sink.replaceTogether(set("B"))
        #expect(read("current.txt") == "current.txt B")
    }

    @Test func theSweepRemovesEveryGenerationButTheCurrentAndDeadWritersLinks() throws {
        let sink = sink()
        try sink.replaceTogether(set("A"))
        try sink.replaceTogether(set("B"))
        // A writer killed after making generation 3 and a temporary link, before switching.
        mkdir(directory + "/.generations/3", 0o755)
        try "half".write(toFile: directory + "/.generations/3/current.png", atomically: false, encoding: .utf8)
        let dead = deadPID()
        let temporary = AtomicFile.temporaryName(for: "current", pid: dead, random: 7)
        symlink(".generations/3", directory + "/" + temporary)
        let alive = AtomicFile.temporaryName(for: "current", pid: getppid(), random: 8)
        symlink(".generations/3", directory + "/" + alive)
        let fresh = OutputGenerations(names: names, announced: "current.json")
        #expect(fresh.sweep(try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY), path: directory) == [directory + "/" + temporary])
        #expect(entries("/.generations") == ["2"])
        #expect(entries().contains(alive), "a live writer's link stays")
        unlink(directory + "/" + alive)
        // The next set follows the current one's number.
        try DirectorySink(directory: try! OutputDirectory(path: directory), generations: fresh).replaceTogether(set("C"))
        #expect(link("current") == ".generations/3")
        #expect(read("current.json") == "current.json C")
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
