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
    static let blackOnWhite = "\u{1B}[0;30;107m"
    static let reset = "\u{1B}[0m"

    /// The symbol as lines without line terminators.
    public func lines(for matrix: QRMatrix) -> [String] {
        let span = matrix.size + 2 * margin
        let dark = { (row: Int, column: Int) in matrix[row - margin, column - margin] }
        if style == .ascii {
            return (0..<span).map { row in
                String((0..<span).flatMap { dark(row, $0) ? "##" : "  " })
            }
        }
        return stride(from: 0, to: span, by: 2).map { row in
            var line = style == .ansi ? Self.blackOnWhite : ""
            for column in 0..<span {
                let upper = dark(row, column)
                // An odd module count leaves a last half row: the quiet zone below is light.
                let lower = row + 1 < span ? dark(row + 1, column) : false
                line.append(glyph(upper: upper, lower: lower))
            }
            if style == .ansi { line += Self.reset }
            return line
        }
    }

    /// The symbol as one string, each line ending in a newline.
    public func render(_ matrix: QRMatrix) -> String {
        lines(for: matrix).map { $0 + "\n" }.joined()
    }

    private func glyph(upper: Bool, lower: Bool) -> Character {
        // utf8 draws light modules (light text on a dark terminal); the others draw dark ones.
        let (top, bottom) = style == .utf8 ? (!upper, !lower) : (upper, lower)
        switch (top, bottom) {
        case (true, true): return "█"
        case (true, false): return "▀"
        case (false, true): return "▄"
        case (false, false): return " "
        }
    }
}
