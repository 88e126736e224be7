/// A venue's id as it appears in check-in URLs: 1–16 characters of `0-9 A-Z - .`, not only dots.
///
/// Lower case is refused rather than upper-cased: the id is part of the signed message, so a
/// silent change would make a kiosk and a server disagree about which venue they mean.
public struct VenueID: Hashable, Sendable, CustomStringConvertible {
    /// The id's text, exactly as signed and shown in the URL.
    public let rawValue: String

    /// The longest id accepted; 8 or fewer keep the default URL at QR version 4 comfortably.
    public static let maximumLength = 16

    /// The venue used when none is configured.
    public static let demo = VenueID(unchecked: "DEMO")

    /// Validates `text` as a venue id.
    public init(_ text: String) throws(CheckInCodeError) {
        guard !text.isEmpty else { throw .invalidVenue(text, reason: "it is empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw .invalidVenue(text, reason: "it is longer than \(Self.maximumLength) characters")
        }
        for byte in text.utf8 where !Self.isAllowed(byte) {
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") {
                throw .invalidVenue(text, reason: "use upper case (\(text.uppercased())): ids are case-sensitive and URLs stay compact in upper case")
            }
            throw .invalidVenue(text, reason: "only 0-9, A-Z, '-' and '.' are allowed")
        }
        // `.` and `..` are dot segments: URL clients remove them, so a server would never see
        // the venue. Any all-dots id is refused, so the rule is simple to state.
        guard text.utf8.contains(where: { $0 != UInt8(ascii: ".") }) else {
            throw .invalidVenue(text, reason: "it must not consist of dots only (URL clients drop '.' and '..' path segments)")
        }
        rawValue = text
    }

    /// A venue id from URL path bytes, or nil when they are not one (the verifier's fast path).
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard (1...Self.maximumLength).contains(bytes.count), bytes.allSatisfy(Self.isAllowed),
              bytes.contains(where: { $0 != UInt8(ascii: ".") }) else { return nil }
        rawValue = String(decoding: bytes, as: UTF8.self)
    }

    private init(unchecked text: String) {
        rawValue = text
    }

    /// Digits, A–Z, '-' and '.': all in QR's alphanumeric set and safe in a URL path.
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    public var description: String { rawValue }
}
