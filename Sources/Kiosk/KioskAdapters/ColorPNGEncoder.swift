import CPNG
import KioskCore
import SharedQR

/// Renders a QR matrix as a two-colour palette PNG (bit depth 1, with `tRNS` when a colour is
/// translucent). Only used when colours are asked for: 1-bit grayscale (`PNGEncoder`) is the
/// smallest form and cannot hold colours. libpng's simplified `png_image` API reports errors by
/// return value, so no setjmp is needed here.
public struct ColorPNGEncoder: Sendable {
    public let scale: Int
    public let margin: Int
    public let foreground: RGBAColor
    public let background: RGBAColor

    /// Creates an encoder; `scale` ≥ 1 and `margin` ≥ 0.
    public init(scale: Int, margin: Int, foreground: RGBAColor, background: RGBAColor) {
        precondition(scale >= 1 && margin >= 0)
        (self.scale, self.margin, self.foreground, self.background) = (scale, margin, foreground, background)
    }

    /// The PNG file bytes for `matrix`.
    public func encode(_ matrix: QRMatrix) throws(PNGError) -> [UInt8] {
        let span = matrix.size + 2 * margin
        let width = span * scale
        guard width <= 1 << 14 else { throw PNGError(message: "image too large for colours: \(width) pixels wide") }
        // One byte per pixel: palette index 0 = dark (foreground), 1 = light (background).
        var pixels = [UInt8](repeating: 1, count: width * width)
        for moduleRow in 0..<span {
            for moduleColumn in 0..<span where matrix[moduleRow - margin, moduleColumn - margin] {
                for y in moduleRow * scale..<(moduleRow + 1) * scale {
                    let start = y * width + moduleColumn * scale
                    for x in start..<start + scale { pixels[x] = 0 }
                }
            }
        }
        let colormap = [foreground, background].flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(width)
        // RGBA colour-mapped: libpng writes a 2-entry palette at bit depth 1.
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_COLORMAP)
        image.colormap_entries = 2
        var size = 0
        let sized = png_image_write_to_memory(&image, nil, &size, 0, pixels, 0, colormap)
        guard sized != 0, size > 0 else { throw PNGError(message: Self.message(image)) }
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes { buffer in
            png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, pixels, 0, colormap)
        }
        guard written != 0 else { throw PNGError(message: Self.message(image)) }
        return Array(bytes.prefix(size))
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
