import Glibc

/// One `poll(2)` call over a set of descriptors: the heart of the daemon's and the kiosk's
/// single-threaded event loops.
public enum Poller {
    /// Waits until one of `descriptors` is readable (or hung up, or in error), or
    /// `timeoutMilliseconds` pass (-1: forever). Returns the descriptors that need attention;
    /// an interrupted wait returns none.
    public static func wait(readable descriptors: [Int32], timeoutMilliseconds: Int32) throws(SystemError) -> Set<Int32> {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        if count < 0 {
            if errno == EINTR { return [] }
            throw SystemError("poll", path: "\(descriptors.count) descriptors")
        }
        return Set(fds.filter { $0.revents != 0 }.map(\.fd))
    }
}
