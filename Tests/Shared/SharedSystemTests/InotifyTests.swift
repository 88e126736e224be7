import Glibc
import SharedSystem
import Testing

/// Watching a directory that someone removes while it is held open (issue 37): the kernel says
/// nothing until the last holder lets go, so the watch must follow the path itself.
@Suite struct InotifyTests {
    let path = temporaryDirectory("watched") + "/out"

    @Test func rewatchFollowsADirectoryMadeAgainWhileTheRemovedOneIsHeldOpen() throws {
        #expect(mkdir(path, 0o755) == 0)
        let watch = try Inotify(directory: path, events: .removals)
        #expect(watch.watch())
        #expect(!watch.rewatch(), "the path names the watched directory: the same watch")
        let holder = open(path, O_RDONLY | O_DIRECTORY)
        defer { close(holder) }
        #expect(rmdir(path) == 0)
        #expect(watch.isWatching && !watch.read().lostDirectory, "held open: the kernel has not said it is gone")
        #expect(!watch.rewatch() && !watch.isWatching, "nothing at the path: no watch, looked for again later")
        #expect(mkdir(path, 0o755) == 0)
        #expect(watch.rewatch(), "a new directory at the path: a new watch")
        #expect(close(open(path + "/current.json", O_CREAT | O_WRONLY, 0o644)) == 0)
        #expect(unlink(path + "/current.json") == 0)
        #expect(watch.read().names == ["current.json"], "the new directory's removals are heard")
        #expect(!watch.rewatch())
    }

    @Test func rewatchMovesTheWatchWithoutLosingItWhenTheDirectoryIsSwapped() throws {
        #expect(mkdir(path, 0o755) == 0)
        let watch = try Inotify(directory: path, events: .removals)
        #expect(watch.watch())
        let holder = open(path, O_RDONLY | O_DIRECTORY)
        #expect(rmdir(path) == 0 && mkdir(path, 0o755) == 0)
        #expect(watch.rewatch())
        #expect(close(holder) == 0)
        // The old watch's own end (IN_IGNORED) is not this watch's.
        #expect(!watch.read().lostDirectory && watch.isWatching)
    }
}
