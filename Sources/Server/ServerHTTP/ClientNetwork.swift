import CMicroHTTPD

/// The network a connection counts in for the per-client limit and the fair share: an IPv4
/// address, or an IPv6 address's /64 (one subscriber usually holds a whole /64, so counting
/// addresses would give each subscriber 2⁶⁴ shares).
struct ClientNetwork: Hashable, Sendable {
    /// 4 or 6 (0: an address of another family, all counted as one).
    let family: Int32
    /// The IPv4 address, or the IPv6 address's first 64 bits.
    let prefix: UInt64

    /// The network of a socket address (libmicrohttpd's accept policy and connection info).
    init(_ address: UnsafePointer<sockaddr>?) {
        let network = cmhd_network_of(address)
        family = network.family
        prefix = network.prefix
    }

    /// A network with these parts (tests).
    init(family: Int32, prefix: UInt64) {
        self.family = family
        self.prefix = prefix
    }
}
