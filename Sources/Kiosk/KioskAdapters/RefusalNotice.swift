import SharedSystem
/// A log line's worth about peers the control socket turned away: one refused peer (with how
/// many more were refused since the last line), or, once a flood is over, just the count.
public struct RefusalNotice: Equatable, Sendable, CustomStringConvertible {
    /// The peer refused now; nil for a summary of refusals that were only counted.
    public let peer: PeerCredentials?
    /// Refusals since the last line that were not logged one by one.
    public let suppressed: Int
    /// The rate limit: at most one line per this many seconds.
    public let intervalSeconds: Int64

    /// Creates a notice.
    public init(peer: PeerCredentials?, suppressed: Int, intervalSeconds: Int64) {
        self.peer = peer
        self.suppressed = suppressed
        self.intervalSeconds = intervalSeconds
    }

    public var description: String {
        let why = "not root, the daemon's user, or in its ops group"
        let more = "\(suppressed) more \(suppressed == 1 ? "peer was" : "peers were") refused (\(why)) and not logged one by one "
            + "(at most one line per \(intervalSeconds) s)"
        guard let peer else { return more }
        let line = "refused uid \(peer.uid) (pid \(peer.pid)): \(why)"
        return suppressed == 0 ? line : "\(line); before it, \(more)"
    }
}
