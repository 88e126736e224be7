/// How many new devices (phones without the server's cookie) the server lets one code, one
/// client network and one venue bring in: one valid code replayed from one address must not
/// become a crowd in the visitor log, and the honest crowd behind one Wi-Fi address must never
/// be turned away. A phone that already has its cookie is never counted.
///
/// Designed for a venue of 500 people arriving in 20 minutes, all behind the venue's one NAT
/// address, in bursts of 50 within one 15-second code (docs/SERVER.md, "Security"):
/// - per network (an IPv4 address, an IPv6 /64): 60 at once, then 30 a minute — the burst of 50
///   fits, 500 in 20 minutes fits (60 + 600), and a replay of one code for 5 s records ~62;
/// - per code (one venue's one window): 100 — twice the burst, and it bounds a code replayed
///   from many addresses;
/// - per venue: `VenueProfile.newDevicesPerHour` (a setting per venue), at most that many each
///   hour, all networks together.
/// A limit of 0 is none (a load test's, or a server whose every client is one trusted proxy).
public struct NewDeviceLimits: Hashable, Sendable {
    /// New devices one network may bring at once.
    public var perNetworkBurst: Int
    /// New devices one network may bring each minute after the burst.
    public var perNetworkPerMinute: Int
    /// New devices one code (a venue's window) may bring.
    public var perCode: Int

    /// The limits above.
    public static let standard = NewDeviceLimits(perNetworkBurst: 60, perNetworkPerMinute: 30, perCode: 100)

    /// Limits of these sizes.
    public init(perNetworkBurst: Int, perNetworkPerMinute: Int, perCode: Int) {
        self.perNetworkBurst = perNetworkBurst
        self.perNetworkPerMinute = perNetworkPerMinute
        self.perCode = perCode
    }
}
