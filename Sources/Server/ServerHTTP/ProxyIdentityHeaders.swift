/// The headers a venue's proxy signs operators in with (`admin-auth = proxy`: the user and its
/// groups, `X-Auth-Request-User` and `-Groups` by default) and the proxies trusted to send them
/// (`trusted-proxies`). The adapter copies them into a request only when its TCP peer is one of
/// those proxies; from any other peer they are dropped before any handler runs, and the request
/// only says that they came (`HTTPRequest.untrustedIdentity`). The peer is the connection's own
/// address, never one a forwarding header names: a header cannot vouch for itself.
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
}

extension IPNetwork {
    /// Whether the range holds every IPv4 address (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96` or
    /// wider): a trust list with it trusts anyone, which `trusted-proxies` refuses.
    public var holdsEveryIPv4Address: Bool {
        guard let first = IPAddress("0.0.0.0"), let last = IPAddress("255.255.255.255") else { return false }
        return contains(first) && contains(last)
    }

    /// Whether the range is all of IPv6 (`::/0`).
    public var isEveryAddress: Bool { prefixBits == 0 }
}
