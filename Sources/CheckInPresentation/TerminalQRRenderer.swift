import CheckInDomain

/// Draws a QR matrix as lines of terminal text, quiet zone included.
///
/// Half-block styles pack two module rows into one text row: the upper half of a cell is the
/// upper module. Each line is self-contained (colours are reset at its end) so a caller can
/// place lines anywhere on a screen.
public struct TerminalQRRenderer: Sendable {
    /// The drawing style.
    public let style: TerminalStyle
    /// Quiet-zone width in modules on each side.
    public let margin: Int

    /// Creates a renderer.
    public init(style: TerminalStyle, margin: Int) {
        self.style = style
        self.margin = max(0, margin)
    }

    /// SGR that paints black glyphs on a white background (basic + bright colours: the Linux
    /// console and every emulator support them).
    static let blackOnWhite: StaticString = "\u{1B}[0;30;107m"
    static let reset: StaticString = "\u{1B}[0m"

    /// The symbol as lines without line terminators.
    public func lines(for matrix: QRMatrix) -> [String] {
        let span = matrix.size + 2 * margin
        return stride(from: 0, to: span, by: rowStep).map { row in
            String(unsafeUninitializedCapacity: lineCapacity(span: span)) { buffer in
                writeLine(row, of: matrix, span: span, into: buffer.baseAddress!)
            }
        }
    }

    /// The symbol as one string, each line ending in a newline.
    public func render(_ matrix: QRMatrix) -> String {
        // One allocation: every line is written straight into the string's storage.
        String(unsafeUninitializedCapacity: capacity(for: matrix)) { writeAll(matrix, into: $0.baseAddress!) }
    }

    /// `render(_:)` as UTF-8 bytes, for a file: no String to build and validate on the way.
    public func renderBytes(_ matrix: QRMatrix) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity(for: matrix)) { buffer, count in
            count = writeAll(matrix, into: buffer.baseAddress!)
        }
    }

    private var rowStep: Int { style == .ascii ? 1 : 2 }

    /// Bytes the whole symbol can take at most, newlines included.
    private func capacity(for matrix: QRMatrix) -> Int {
        let span = matrix.size + 2 * margin
        return (span + rowStep - 1) / rowStep * (lineCapacity(span: span) + 1)
    }

    /// Writes every line and its newline at `start`; returns the length.
    private func writeAll(_ matrix: QRMatrix, into start: UnsafeMutablePointer<UInt8>) -> Int {
        let span = matrix.size + 2 * margin
        var end = start
        for row in stride(from: 0, to: span, by: rowStep) {
            end += writeLine(row, of: matrix, span: span, into: end)
            end.pointee = UInt8(ascii: "\n")
            end += 1
        }
        return end - start
    }

    /// Bytes a line can take at most: 3 UTF-8 bytes a half-block cell (2 an ASCII module) plus colours.
    private func lineCapacity(span: Int) -> Int {
        style == .ascii ? 2 * span : 3 * span + (style == .ansi ? Self.blackOnWhite.utf8CodeUnitCount + Self.reset.utf8CodeUnitCount : 0)
    }

    /// Writes text row `row` (module row `row`, and `row + 1` for half blocks) at `out`; returns its length.
    /// A byte at a time into a buffer sized by `lineCapacity`: no Character or String per glyph.
    private func writeLine(_ row: Int, of matrix: QRMatrix, span: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var end = out
        let moduleRow = row - margin
        if style == .ascii {
            for column in 0..<span {
                let byte = matrix[moduleRow, column - margin] ? UInt8(ascii: "#") : UInt8(ascii: " ")
                end[0] = byte
                end[1] = byte
                end += 2
            }
            return end - out
        }
        if style == .ansi { Self.copy(Self.blackOnWhite, to: &end) }
        // utf8 draws light modules (light text on a dark terminal); the others draw dark ones.
        let drawsLight = style == .utf8
        // An odd module count leaves a last half row: the quiet zone below is light.
        let hasLower = row + 1 < span
        for column in 0..<span {
            let top = matrix[moduleRow, column - margin] != drawsLight
            let bottom = (hasLower && matrix[moduleRow + 1, column - margin]) != drawsLight
            if top || bottom {
                // █ U+2588, ▀ U+2580, ▄ U+2584: E2 96 88 / 80 / 84 in UTF-8.
                end[0] = 0xE2
                end[1] = 0x96
                end[2] = top ? (bottom ? 0x88 : 0x80) : 0x84
                end += 3
            } else {
                end.pointee = UInt8(ascii: " ")
                end += 1
            }
        }
        if style == .ansi { Self.copy(Self.reset, to: &end) }
        return end - out
    }

    private static func copy(_ text: StaticString, to end: inout UnsafeMutablePointer<UInt8>) {
        end.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        end += text.utf8CodeUnitCount
    }
}
