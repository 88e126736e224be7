import Foundation
import Glibc
import KioskAdapters
import Testing

/// The held output directory (`OutputDirectory`): between walks of its whole path it is re-checked
/// cheaply before each write, and anything the walk would refuse is still refused at once —
/// except a loosened directory further up, which the next walk (at most a second later) finds.
@Suite final class OutputDirectoryTests {
    let base = temporaryDirectory("held-output")
    /// The injected monotonic clock, in nanoseconds.
    var time: Int64 = 1_000_000_000

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    private func held(_ name: String = "out") throws -> OutputDirectory {
        try OutputDirectory(path: base + "/" + name, now: { [unowned self] in self.time })
    }

    private func refusal(_ directory: OutputDirectory) -> String? {
        do {
            _ = try directory.current()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theSameDirectoryIsHeldBetweenWritesWithoutAWalk() throws {
        let directory = try held()
        let first = try directory.current()
        time += 10_000_000
        #expect(try directory.current() === first)
        time += OutputDirectory.rewalkInterval
        #expect(try directory.current() !== first)  // walked again: a new descriptor of the same directory
        #expect(try directory.current().identity == first.identity)
    }

    @Test func aDirectorySwappedForALinkIsRefusedAtTheNextWriteNotAfterTheInterval() throws {
        let directory = try held()
        _ = try directory.current()
        let victim = base + "/victim"
        #expect(mkdir(victim, 0o755) == 0)
        #expect(rename(base + "/out", base + "/out.old") == 0)
        #expect(symlink(victim, base + "/out") == 0)
        #expect(chmod(victim, 0o777) == 0)
        // No time passes: the cheap check sees the path name another directory and walks it.
        #expect(refusal(directory)?.contains("anyone may write to") == true)
    }

    @Test func aDirectoryRemovedAndMadeAgainLooselyIsRefusedAtTheNextWrite() throws {
        let directory = try held()
        _ = try directory.current()
        #expect(rmdir(base + "/out") == 0)
        #expect(mkdir(base + "/out", 0o755) == 0 && chmod(base + "/out", 0o777) == 0)
        #expect(refusal(directory)?.contains("anyone may write to it (mode 0777)") == true)
    }

    @Test func theHeldDirectoryLoosenedInPlaceIsRefusedAtTheNextWrite() throws {
        let directory = try held()
        _ = try directory.current()
        #expect(chmod(base + "/out", 0o777) == 0)
        #expect(refusal(directory)?.contains("anyone may write to it (mode 0777)") == true)
        #expect(chmod(base + "/out", 0o755) == 0)
        #expect(refusal(directory) == nil)  // trustworthy again: publishing resumes
    }

    @Test func aLoosenedParentIsFoundByTheWalkWithinTheInterval() throws {
        #expect(mkdir(base + "/parent", 0o755) == 0)
        let directory = try held("parent/out")
        _ = try directory.current()
        #expect(chmod(base + "/parent", 0o777) == 0)
        time += OutputDirectory.rewalkInterval - 1
        #expect(refusal(directory) == nil)  // held: the parent is not looked at between walks
        time += 1
        #expect(refusal(directory)?.contains("anyone may write to") == true)
    }

    @Test func forgettingWalksAgainAtOnce() throws {
        #expect(mkdir(base + "/parent", 0o755) == 0)
        let directory = try held("parent/out")
        _ = try directory.current()
        #expect(chmod(base + "/parent", 0o777) == 0)
        directory.forget()  // what an inotify event of the directory does
        #expect(refusal(directory)?.contains("anyone may write to") == true)
    }
}
