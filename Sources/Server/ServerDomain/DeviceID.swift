/// A pseudonymous id of one phone (or browser): what duplicates are decided by.
///
/// The HTTP adapter derives it from the device cookie; the ledger stores only this id, never the
/// cookie itself. Text of 1-64 characters of `0-9 a-z A-Z - _`, so it is safe in any column,
/// log field or file name.
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    /// The id's text.
    public let rawValue: String

    /// The longest id accepted.
    public static let maximumLength = 64

    /// Validates `text`; nil when it is empty, too long or has another character.
    public init?(_ text: String) {
        var text = text
        // An index loop: exports check a million of these.
        let valid = text.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= Self.maximumLength else { return false }
            var index = 0
            while index < bytes.count {
                if !Self.isAllowed(bytes[index]) { return false }
                index += 1
            }
            return true
        }
        guard valid else { return nil }
        rawValue = text
    }

    public var description: String { rawValue }

    /// Characters of an id that operator outputs show (`checkins --format table`, `erase`'s
    /// preview) and `erase --device` resolves as a prefix: the cookie's issue time (12 hex
    /// digits, milliseconds) and 4 of its hash, unique in practice. The first 8 alone are only
    /// the issue time to the minute's few seconds: devices issued together looked alike.
    public static let shownLength = 16

    /// The id as operator outputs show it: its first `shownLength` characters.
    public var shown: String { String(rawValue.prefix(Self.shownLength)) }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
