import Glibc

/// Watches one directory with inotify for files renamed into it, written, or removed, and for
/// the directory itself going away. The directory may not exist yet: `watch()` then returns
/// false and the caller retries later.
public final class Inotify {
    /// The inotify descriptor, for poll(2).
    public let descriptor: Int32
    /// The watched directory.
    public let directory: String
    private var watchDescriptor: Int32 = -1
    private let mask: UInt32

    /// Which events wake the watcher.
    public enum Watched: Sendable {
        /// Files renamed in, written, or removed (a reader following a writer).
        case changes
        /// Removals (of files, and of the directory itself) and changes of the directory's own
        /// owner or mode: a writer that puts them back, and checks the directory again.
        case removals
    }

    /// What one batch of events says.
    public struct Events: Equatable, Sendable {
        /// Names of entries that were created by rename, closed after writing, or removed.
        public var names: Set<String> = []
        /// The directory was removed or moved away: the watch is gone.
        public var lostDirectory = false
        /// The directory's own owner, group or mode changed (`.removals` watches only).
        public var changedDirectory = false
    }

    /// Creates an inotify instance for `directory` (not yet watching).
    public init(directory: String, events: Watched = .changes) throws(SystemError) {
        mask = switch events {
        case .changes: UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        case .removals: UInt32(IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR)
        }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("create an inotify instance for", path: directory) }
        descriptor = fd
        self.directory = directory
    }

    /// Whether the directory is being watched.
    public var isWatching: Bool { watchDescriptor >= 0 }

    /// Starts watching; false if the directory does not exist (or is not a directory) yet.
    @discardableResult
    public func watch() -> Bool {
        guard watchDescriptor < 0 else { return true }
        watchDescriptor = inotify_add_watch(descriptor, directory, mask)
        return watchDescriptor >= 0
    }

    /// Watches the directory the path names now: starts watching when there was no watch, and
    /// moves the watch when the path names another directory than the one watched. A directory
    /// removed while anyone holds it open (a shell inside it, a reader) is gone from its path, but
    /// the kernel says so (`IN_DELETE_SELF`) only when the last holder lets go; meanwhile a
    /// directory made again at the path would go unwatched. One `inotify_add_watch`, which
    /// returns the watch already there when the path names the watched directory. Returns
    /// whether the watch is a new one (events between the two watches were missed: read again).
    @discardableResult
    public func rewatch() -> Bool {
        let found = inotify_add_watch(descriptor, directory, mask)
        guard found != watchDescriptor else { return false }
        // The old watch's own events (IN_IGNORED) are dropped by `read()`: they are not this one's.
        if watchDescriptor >= 0 { _ = inotify_rm_watch(descriptor, watchDescriptor) }
        watchDescriptor = max(found, -1)
        return found >= 0
    }

    /// Reads every queued event (call when poll says the descriptor is readable).
    public func read() -> Events {
        var events = Events()
        var lostByKernel = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                retryingOnInterrupt { Glibc.read(descriptor, bytes.baseAddress, bytes.count) }
            }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
                while offset + 16 <= count {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    offset += 16 + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        // Events were dropped: whatever changed, re-reading covers it.
                        events.names.insert("current.json")
                        continue
                    }
                    // Events of an earlier watch (already removed) say nothing about this one;
                    // acting on them would drop the good watch again and again.
                    guard wd == watchDescriptor else { continue }
                    if mask & UInt32(IN_IGNORED | IN_UNMOUNT) != 0 {
                        // The kernel removed the watch itself: nothing to remove.
                        events.lostDirectory = true
                        lostByKernel = true
                    } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        events.lostDirectory = true
                    } else if mask & UInt32(IN_ATTRIB) != 0 {
                        // A file's attributes (the writer's own fchmod) are no news; the directory's are.
                        if nameBytes.isEmpty { events.changedDirectory = true }
                    } else if !nameBytes.isEmpty {
                        events.names.insert(String(decoding: nameBytes, as: UTF8.self))
                    }
                }
            }
        }
        if events.lostDirectory && watchDescriptor >= 0 {
            // A moved directory keeps its watch; drop it so `watch()` finds the path again.
            if !lostByKernel { _ = inotify_rm_watch(descriptor, watchDescriptor) }
            watchDescriptor = -1
        }
        return events
    }

    deinit {
        _ = close(descriptor)
    }
}
