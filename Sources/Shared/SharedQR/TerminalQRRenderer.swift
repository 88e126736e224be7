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

    /// Bytes a line can take at most: 3 UTF-8 bytes a half-block cell (2 an ASCII module) plus
    /// colours, and 1 to spare for the last glyph's whole-word store.
    private func lineCapacity(span: Int) -> Int {
        style == .ascii ? 2 * span : 3 * span + 1 + (style == .ansi ? Self.blackOnWhite.utf8CodeUnitCount + Self.reset.utf8CodeUnitCount : 0)
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
        // A cell's glyph by (upper drawn, lower drawn): ' ', ▄ U+2584, ▀ U+2580, █ U+2588, as
        // little-endian UTF-8 words stored whole (4 bytes, the line has room) and their lengths.
        let glyphs: (UInt32, UInt32, UInt32, UInt32) = (0x20, 0x84_96E2, 0x80_96E2, 0x88_96E2)
        let quiet = drawsLight ? glyphs.3 : glyphs.0  // both halves light
        let quietLength = drawsLight ? 3 : 1
        func put(_ glyph: UInt32, _ length: Int) {
            UnsafeMutableRawPointer(end).storeBytes(of: glyph.littleEndian, as: UInt32.self)
            end += length
        }
        for _ in 0..<min(margin, span) { put(quiet, quietLength) }
        matrix.withUnsafeModules { modules in
            // Module rows `moduleRow` and the one below, nil in the quiet zone (and below an
            // odd module count's last row).
            func rowStart(_ moduleRow: Int) -> UnsafePointer<Bool>? {
                (0..<matrix.size).contains(moduleRow) ? modules.baseAddress! + moduleRow * matrix.size : nil
            }
            let upper = rowStart(moduleRow), lower = row + 1 < span ? rowStart(moduleRow + 1) : nil
            for column in 0..<matrix.size {
                let top = (upper?[column] ?? false) != drawsLight
                let bottom = (lower?[column] ?? false) != drawsLight
                switch (top, bottom) {
                case (false, false): put(glyphs.0, 1)
                case (false, true): put(glyphs.1, 3)
                case (true, false): put(glyphs.2, 3)
                case (true, true): put(glyphs.3, 3)
                }
            }
        }
        for _ in 0..<min(margin, span) { put(quiet, quietLength) }
        if style == .ansi { Self.copy(Self.reset, to: &end) }
        return end - out
    }

    private static func copy(_ text: StaticString, to end: inout UnsafeMutablePointer<UInt8>) {
        end.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        end += text.utf8CodeUnitCount
    }
}
