import CQRencode
import CheckInDomain
import Glibc

/// libqrencode behind the `QREncoding` port.
///
/// Always 8-bit mode for anything that is not digits or upper-case alphanumerics: libqrencode's
/// Kanji mode reads Shift-JIS and corrupts Hangul whose UTF-8 starts with 0xEA (가–깋).
/// Case-sensitive, so lower case stays lower case; digits and A–Z keep their compact modes.
public struct QRCodeEncoder: QREncoding {
    /// Creates an encoder. It holds no state: libqrencode is re-entrant when built with pthreads.
    public init() {}

    public func encode(_ text: String, level: ErrorCorrectionLevel) throws(QREncodingError) -> QRMatrix {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        errno = 0
        let symbol: UnsafeMutablePointer<QRcode>? =
            if bytes.contains(0) {
                // A NUL would end the C string early; encode the raw bytes instead.
                QRcode_encodeData(Int32(bytes.count), bytes, 0, level.cLevel)
            } else {
                QRcode_encodeString(text, 0, level.cLevel, QR_MODE_8, 1)
            }
        guard let symbol else {
            if errno == ERANGE { throw .tooLong(bytes: bytes.count, level: level) }
            throw .encoderFailed(errno: errno)
        }
        defer { QRcode_free(symbol) }
        let size = Int(symbol.pointee.width)
        // Bit 0 of each byte is the module colour; the other bits are libqrencode bookkeeping.
        let modules = UnsafeBufferPointer(start: symbol.pointee.data, count: size * size).map { $0 & 1 == 1 }
        return QRMatrix(version: Int(symbol.pointee.version), size: size, modules: modules)
    }
}

extension ErrorCorrectionLevel {
    var cLevel: QRecLevel {
        switch self {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }
}
