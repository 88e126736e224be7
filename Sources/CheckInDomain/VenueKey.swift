/// One venue's key and the two messages it signs (docs/TOKEN.md, "Keys" and "MACs").
///
/// The key is HKDF-SHA256(IKM: master secret, salt: "QRCHECKIN-V1", info: "VENUE-KEY:" ‖ venue):
/// a server or kiosk holding one venue's key learns nothing about another venue's.
struct VenueKey: Sendable {
    static let salt = Array("QRCHECKIN-V1".utf8)
    static let infoPrefix = Array("VENUE-KEY:".utf8)
    static let tokenLabel = Array("QRCHECKIN-TOKEN".utf8)
    static let safeNumberLabel = Array("QRCHECKIN-SAFE-NUMBER".utf8)

    let venue: VenueID
    let period: RotationPeriod
    private let key: [UInt8]
    private let authenticator: any MessageAuthenticator

    init(secret: MasterSecret, venue: VenueID, period: RotationPeriod, authenticator: any MessageAuthenticator) {
        self.venue = venue
        self.period = period
        self.authenticator = authenticator
        key = HKDF(authenticator: authenticator).deriveKey(
            inputKeyMaterial: secret.bytes, salt: Self.salt,
            info: Self.infoPrefix + Array(venue.rawValue.utf8), length: HKDF.hashLength)
    }

    /// label ‖ 0x00 ‖ version ‖ len(venue) ‖ venue ‖ period (u32 BE) ‖ window (i64 BE): the
    /// common prefix, so a MAC binds the format version, the venue, the period and the window.
    private func context(_ label: [UInt8], window: Int64) -> [UInt8] {
        let venueBytes = Array(venue.rawValue.utf8)
        return label + [0, CheckInToken.version.asciiValue!, UInt8(venueBytes.count)] + venueBytes
            + BigEndian.bytes(UInt32(period.seconds)) + BigEndian.bytes(UInt64(bitPattern: window))
    }

    /// The token MAC: HMAC over the context and the sequence (u32 BE), first 13 bytes.
    func tokenMAC(window: Int64, sequence: UInt32) -> [UInt8] {
        let message = context(Self.tokenLabel, window: window) + BigEndian.bytes(sequence)
        return Array(authenticator.authenticationCode(for: message, key: key).prefix(CheckInToken.macLength))
    }

    /// The safe number of a window: HMAC under its own label, formatted by `SafeNumber`.
    func safeNumber(window: Int64) -> String {
        SafeNumber.format(authenticator.authenticationCode(for: context(Self.safeNumberLabel, window: window), key: key))
    }

    /// Constant-time equality through the port.
    func isEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        authenticator.isEqualInConstantTime(a, b)
    }
}
