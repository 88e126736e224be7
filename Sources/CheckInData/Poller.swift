import Glibc

/// One `poll(2)` call over a set of descriptors: the heart of a single-threaded event loop.
public enum Poller {
    /// Waits until one of `descriptors` is readable (or hung up), or `timeoutMilliseconds`
    /// passes (-1: forever). Returns the readable descriptors; EINTR counts as a timeout.
    public static func wait(readable descriptors: [Int32], timeoutMilliseconds: Int32) -> Set<Int32> {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        guard count > 0 else { return [] }
        return Set(fds.filter { $0.revents != 0 }.map(\.fd))
    }
}
