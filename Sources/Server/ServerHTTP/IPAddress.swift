import CMicroHTTPD

/// An IPv4 or IPv6 address (IPv4 kept as v4-mapped IPv6), parsed by inet_pton.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes; IPv4 as ::ffff:a.b.c.d.
    public let bytes: [UInt8]
    /// The address as it was written (normalised by the parse).
    public let description: String

    /// Parses `text`; nil when it is not an address.
    public init?(_ text: String) {
        var buffer = [UInt8](repeating: 0, count: 16)
        guard text.utf8.count <= 64, !text.contains("\0"), cmhd_parse_address(text, &buffer) != 0 else { return nil }
        bytes = buffer
        description = text
    }

    /// Whether the address is IPv4.
    public var isIPv4: Bool { bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff }

    /// Whether the address is this host's: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        isIPv4 ? bytes[12] == 127 : bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
    }

    /// What rate limits count by: an IPv4 address itself, an IPv6 address's /64.
    public var rateLimitKey: String {
        guard !isIPv4 else { return description }
        return stride(from: 0, to: 8, by: 2).map { index in
            String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16)
        }.joined(separator: ":") + "::/64"
    }
}

/// An address range (`10.0.0.0/8`, `2001:db8::/32`, or one address) of trusted proxies.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The first address.
    public let address: IPAddress
    /// Leading bits that must match, counted in the 128-bit form.
    public let prefixBits: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil when either part is bad.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let maximum = address.isIPv4 ? 32 : 128
        var bits = maximum
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...maximum).contains(value), parts[1].allSatisfy(\.isNumber) else { return nil }
            bits = value
        }
        self.address = address
        prefixBits = bits + (address.isIPv4 ? 96 : 0)
    }

    /// Whether `candidate` is in the range.
    public func contains(_ candidate: IPAddress) -> Bool {
        var remaining = prefixBits
        for index in 0..<16 where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            if candidate.bytes[index] & mask != address.bytes[index] & mask { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String {
        "\(address)/\(address.isIPv4 ? prefixBits - 96 : prefixBits)"
    }
}
