import Foundation
import Glibc
import SharedSystem
import Testing

/// Files written by a held directory's descriptor: a link at the name is replaced, never
/// followed; a FIFO (or device, socket, directory) there is refused and left as it was.
@Suite final class PreparedEntryTests {
    let base = temporaryDirectory("entry")

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    @Test func aLinkIsReplacedItselfAndItsTargetLeftAlone() throws {
        let victim = base + "/victim"
        FileManager.default.createFile(atPath: victim, contents: Data("mine\n".utf8))
        #expect(mkdir(base + "/out", 0o755) == 0 && symlink(victim, base + "/out/current.json") == 0)
        let directory = try DirectoryTrust().open(base + "/out", for: .publishing)
        try AtomicFile.prepare(Array("new\n".utf8), as: "current.json", in: directory).publish()
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "mine\n")
        #expect(try String(contentsOfFile: base + "/out/current.json", encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/out") == ["current.json"])
    }

    @Test func aFIFOAtTheNameIsRefusedAndKept() throws {
        #expect(mkdir(base + "/out", 0o755) == 0 && mkfifo(base + "/out/current.json", 0o644) == 0)
        let directory = try DirectoryTrust().open(base + "/out", for: .publishing)
        #expect(throws: SystemError("replace", path: base + "/out/current.json", code: EEXIST,
                                    detail: "it is a FIFO, not a regular file; refusing to replace it")) {
            try AtomicFile.prepare(Array("new\n".utf8), as: "current.json", in: directory)
        }
        var status = stat()
        #expect(lstat(base + "/out/current.json", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/out") == ["current.json"])
    }
}
