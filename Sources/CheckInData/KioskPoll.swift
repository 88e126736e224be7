import Glibc

/// poll(2) over a few descriptors for the kiosk loop.
public enum KioskPoll {
    /// Waits until a descriptor is readable or hung up, or `timeoutMilliseconds` pass; returns,
    /// for each descriptor, whether it needs attention. An interrupted wait reports none.
    public static func wait(_ descriptors: [Int32], timeoutMilliseconds: Int32) throws(SystemError) -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let result = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        if result < 0 {
            if errno == EINTR { return descriptors.map { _ in false } }
            throw SystemError("poll", path: "the kiosk's descriptors")
        }
        return fds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 }
    }
}
