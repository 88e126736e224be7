/// The headers a venue's proxy signs operators in with (`admin-auth = proxy`: the user and its
/// groups, `X-Auth-Request-User` and `-Groups` by default) and the proxies trusted to send them
/// (`trusted-proxies`, the same list `ClientResolver` believes forwarding headers from). The
/// adapter copies them into a request only when its TCP peer is one of those proxies; from any
/// other peer they are dropped before any handler runs, and the request only says that they
/// came (`HTTPRequest.untrustedIdentity`). The peer is the connection's own address, never one a
/// forwarding header names: a header cannot vouch for itself.
public struct ProxyIdentityHeaders: Sendable {
    /// The header names, lower case (as `HTTPRequest.headers` keys them).
    public let names: [String]
    /// The proxies whose identity headers count.
    public let trusted: [IPNetwork]

    /// Headers `names` (any case) believed from `trusted` only.
    public init(names: [String], trusted: [IPNetwork]) {
        self.names = names.map { $0.lowercased() }
        self.trusted = trusted
    }

    /// Whether the connection's peer `peer` may send them.
    public func trusts(peer: String) -> Bool {
        guard let address = IPAddress(peer) else { return false }
        return trusted.contains { $0.contains(address) }
    }

    /// What of `sent` (header name, lower case → value, as looked up on the connection) a
    /// request from `peer` keeps, and whether any was dropped (a spoof attempt).
    public func filter(_ sent: [String: String], peer: String) -> (kept: [String: String], dropped: Bool) {
        guard !sent.isEmpty else { return ([:], false) }
        return trusts(peer: peer) ? (sent, false) : ([:], true)
    }
}

extension IPNetwork {
    /// Whether the range holds every IPv4 address or every IPv6 address (`0.0.0.0/0`, `::/0`,
    /// `::ffff:0:0/96`): a trust list with it trusts anyone, which `trusted-proxies` refuses.
    public var trustsAnyone: Bool {
        if let first = IPAddress("0.0.0.0"), let last = IPAddress("255.255.255.255"), contains(first), contains(last) { return true }
        if let first = IPAddress("::"), let last = IPAddress("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), contains(first), contains(last) {
            return true
        }
        return false
    }
}
