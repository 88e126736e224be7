/// QR error correction: how much of a symbol may be damaged and still decode.
public enum ErrorCorrectionLevel: String, CaseIterable, Sendable, Codable {
    case low = "L", medium = "M", quartile = "Q", high = "H"

    /// Parses `L`, `M`, `Q` or `H` (either case).
    public init?(letter: String) {
        self.init(rawValue: letter.uppercased())
    }

    /// Bytes of 8-bit data a version-40 symbol holds at this level (ISO/IEC 18004 table 7).
    public var maximumBytes: Int {
        switch self {
        case .low: 2953
        case .medium: 2331
        case .quartile: 1663
        case .high: 1273
        }
    }
}
