/// A receipt number as a visitor or an operator gives it: the id a check-in shows (receipt
/// URLs, `checkins`, the console's search), read once from text. Decimal digits only, at most 18
/// (so it fits an `Int64`; shown ids are 1 to 2^48, `CheckInIDCipher.ids`): no sign, no space.
/// Whether it names a check-in is the ledger's answer, not the parser's: an unknown number is a
/// well-formed receipt number that finds nothing.
public struct ReceiptID: Hashable, Sendable, CustomStringConvertible {
    /// The number, as `CheckIn.id` holds it.
    public let rawValue: Int64

    /// The most digits taken: 18 always fit an `Int64`.
    public static let maximumDigits = 18

    /// The receipt number `text` spells; nil unless it is 1 to 18 ASCII digits (`Int64(_:)` alone
    /// would take `+12` and `-0`).
    public init?(_ text: some StringProtocol) {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= Self.maximumDigits else { return nil }
        var value: Int64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        rawValue = value
    }

    /// The receipt number of check-in id `id`.
    public init(_ id: Int64) {
        rawValue = id
    }

    public var description: String { String(rawValue) }
}
