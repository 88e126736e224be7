import SharedQR
import SharedQREncoder

/// An enrolment's URI drawn as a QR code with the kiosk's own encoder and renderers (SharedQR):
/// terminal text for `qrcheckin-server user totp enable`, an inline `<svg>` for the console.
/// libqrencode is loaded by the first drawing (CLibraryLoader), never at the server's start.
public struct EnrolmentQR: Sendable {
    /// Level L (7 % may be lost), qrencode's own default: the symbol is on a screen, scanned
    /// once, with no wear to recover from, and the lowest level draws the fewest modules.
    /// `qrcheckin:admin`'s URI is version 6 (41 modules: 23 rows of half blocks with the
    /// margin, inside an 80×24 terminal; 45 at level M would take 25); the longest names
    /// (64 bytes, and an organisation of 20) are version 10 (57 modules, 31 rows).
    public static let level = ErrorCorrectionLevel.low

    private let encoder: any QREncoding

    /// Draws with `encoder` (libqrencode's `QRCodeEncoder` unless a test gives another).
    public init(encoder: any QREncoding = QRCodeEncoder()) {
        self.encoder = encoder
    }

    /// `text` as terminal lines (each ending in a newline) in `style`, with a `margin`-module
    /// quiet zone (2 is what `qrencode -t UTF8` draws and phones scan).
    public func terminalText(_ text: String, style: TerminalStyle, margin: Int = 2) throws(QREncodingError) -> String {
        TerminalQRRenderer(style: style, margin: margin).render(try encoder.encode(text, level: Self.level))
    }

    /// `text` as an `<svg>` element to place in a page (no XML declaration), `scale` pixels a
    /// module, 4 modules of quiet zone (the standard's).
    public func svgElement(_ text: String, scale: Int = 4) throws(QREncodingError) -> String {
        SVGRenderer(scale: scale, margin: 4).element(try encoder.encode(text, level: Self.level))
    }
}
