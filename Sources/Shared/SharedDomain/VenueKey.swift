/// One venue's key bound to a period, and the two messages it signs (docs/TOKEN.md, "MACs").
///
/// Built once per venue and period (issuer) or per venue (verifier cache): the HKDF derivation
/// and the HMAC key schedule cost more than a code, so they are not repeated per code. A class,
/// so the verifier's cache hands out references instead of copying its arrays per code.
final class VenueKey: Sendable {
    static let tokenLabel = Array("QRCHECKIN-TOKEN".utf8)
    static let safeNumberLabel = Array("QRCHECKIN-SAFE-NUMBER".utf8)

    let venue: VenueID
    let period: RotationPeriod
    private let mac: any KeyedMessageAuthenticator
    /// context(label) without the window: label ‖ 0x00 ‖ "1" ‖ len(venue) ‖ venue ‖ u32be(period).
    private let tokenPrefix: [UInt8]
    private let safeNumberPrefix: [UInt8]

    init(key: VenueSigningKey, period: RotationPeriod, authenticator: any MessageAuthenticator) {
        venue = key.venue
        self.period = period
        mac = authenticator.keyed(key.bytes)
        let venueBytes = Array(key.venue.rawValue.utf8)
        let common = [0, CheckInToken.version.asciiValue!, UInt8(venueBytes.count)] + venueBytes
            + BigEndian.bytes(UInt32(period.seconds))
        tokenPrefix = Self.tokenLabel + common
        safeNumberPrefix = Self.safeNumberLabel + common
    }

    convenience init(secret: MasterSecret, venue: VenueID, period: RotationPeriod, authenticator: any MessageAuthenticator) {
        self.init(key: VenueSigningKey(deriving: secret, for: venue, authenticator: authenticator),
                  period: period, authenticator: authenticator)
    }

    /// The token MAC: HMAC over context ‖ u32be(sequence), first 13 bytes.
    func tokenMAC(window: Int64, sequence: UInt32) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        withTokenMessage(window: window, sequence: sequence) { message in
            output.withUnsafeMutableBytes { mac.authenticate(message, into: $0) }
        }
        return Array(output.prefix(CheckInToken.macLength))
    }

    /// Whether `truncated` is the token MAC of (window, sequence), compared in constant time.
    func tokenMACMatches(window: Int64, sequence: UInt32, _ truncated: UnsafeRawBufferPointer) -> Bool {
        withTokenMessage(window: window, sequence: sequence) { mac.matches($0, truncatedMAC: truncated) }
    }

    /// The first 8 bytes of the safe-number HMAC of a window, big-endian.
    func safeNumberValue(window: Int64) -> UInt64 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: safeNumberPrefix.count + 8) { buffer in
            var end = buffer.initialize(fromContentsOf: safeNumberPrefix)
            end = BigEndian.write(UInt64(bitPattern: window), to: buffer, at: end)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { output in
                mac.authenticate(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<end])),
                                 into: UnsafeMutableRawBufferPointer(output))
                var value: UInt64 = 0
                for index in 0..<8 { value = value << 8 | UInt64(output[index]) }
                return value
            }
        }
    }

    /// The safe number of a window, formatted by `SafeNumber`.
    func safeNumber(window: Int64) -> String {
        SafeNumber.format(safeNumberValue(window: window))
    }

    private func withTokenMessage<R>(window: Int64, sequence: UInt32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: tokenPrefix.count + 12) { buffer in
            var end = buffer.initialize(fromContentsOf: tokenPrefix)
            end = BigEndian.write(UInt64(bitPattern: window), to: buffer, at: end)
            end = BigEndian.write(UInt64(sequence) << 32, to: buffer, at: end, count: 4)
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<end])))
        }
    }
}
