/// Port: turns text into a QR symbol. The Data layer implements it with libqrencode.
public protocol QREncoding: Sendable {
    /// Encodes `text` at the smallest version that fits at `level`.
    func encode(_ text: String, level: ErrorCorrectionLevel) throws(QREncodingError) -> QRMatrix
}

/// Why a text could not become a QR symbol.
public enum QREncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There was nothing to encode.
    case empty
    /// The text does not fit in a version-40 symbol at this level. `limit` is the most bytes of
    /// this kind of text the level holds (one less than `level.maximumBytes` for text that needs
    /// a UTF-8 designator).
    case tooLong(bytes: Int, limit: Int, level: ErrorCorrectionLevel)
    /// The encoder library failed for another reason (an errno value).
    case encoderFailed(errno: Int32)

    public var description: String {
        switch self {
        case .empty:
            "nothing to encode: the text is empty"
        case .tooLong(let bytes, let limit, let level):
            "text too long: \(bytes) bytes, but level \(level.rawValue) holds at most "
                + "\(limit) bytes (more if only digits or A-Z 0-9 $%*+-./: are used)"
        case .encoderFailed(let code):
            "the QR encoder failed (errno \(code))"
        }
    }
}
