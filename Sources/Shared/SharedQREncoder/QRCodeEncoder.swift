import CQRencode
import Glibc
import SharedQR

/// libqrencode behind the `QREncoding` port.
///
/// Always 8-bit mode for anything that is not digits or upper-case alphanumerics: libqrencode's
/// Kanji mode reads Shift-JIS and corrupts Hangul whose UTF-8 starts with 0xEA (가–깋).
/// Case-sensitive, so lower case stays lower case; digits and A–Z keep their compact modes.
/// Text that is not pure ASCII carries an ECI designator saying UTF-8.
public struct QRCodeEncoder: QREncoding {
    /// The smallest symbol version to use, 1-40 (`qrencode -v`); 0 picks the smallest that fits.
    public let minimumVersion: Int

    /// Creates an encoder. It holds no state: libqrencode is re-entrant when built with pthreads.
    public init(minimumVersion: Int = 0) {
        self.minimumVersion = minimumVersion
    }

    public func encode(_ text: String, level: ErrorCorrectionLevel) throws(QREncodingError) -> QRMatrix {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        // Byte-mode data without an ECI designator means ISO-8859-1 (ISO/IEC 18004 §7.4.2), and
        // decoders guess otherwise: zbar read 가 (EA B0 80) as 穈 and "héllo" as "h矇llo" although
        // the symbol's bytes were right. So text that is not pure ASCII starts with ECI 000026
        // (UTF-8); it costs 12 bits (one byte less capacity). Pure ASCII reads the same in every
        // charset and keeps the full capacity, so it gets no designator.
        let isASCII = bytes.allSatisfy { $0 < 0x80 }
        let limit = level.maximumBytes - (isASCII ? 0 : 1)
        guard let input = QRinput_new2(Int32(minimumVersion), level.cLevel) else { throw .encoderFailed(errno: errno) }
        defer { QRinput_free(input) }
        if !isASCII, QRinput_appendECIheader(input, 26) != 0 { throw .encoderFailed(errno: errno) }
        let appended =
            if bytes.contains(0) {
                // A NUL would end the C string early; append the raw bytes as one 8-bit segment.
                QRinput_append(input, QR_MODE_8, Int32(bytes.count), bytes)
            } else {
                // Hint QR_MODE_8: never Kanji mode. Case-sensitive: lower case stays lower case.
                Split_splitStringToQRinput(text, input, QR_MODE_8, 1)
            }
        guard appended == 0 else { throw .encoderFailed(errno: errno) }
        errno = 0
        guard let symbol = QRcode_encodeInput(input) else {
            if errno == ERANGE { throw .tooLong(bytes: bytes.count, limit: limit, level: level) }
            throw .encoderFailed(errno: errno)
        }
        defer { QRcode_free(symbol) }
        let size = Int(symbol.pointee.width)
        // Bit 0 of each byte is the module colour; the other bits are libqrencode bookkeeping.
        let data = symbol.pointee.data!
        let modules = [Bool](unsafeUninitializedCapacity: size * size) { buffer, count in
            for index in 0..<size * size { buffer[index] = data[index] & 1 == 1 }
            count = size * size
        }
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
