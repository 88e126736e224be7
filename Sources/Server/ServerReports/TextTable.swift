import SharedDomain
import SharedText

/// Aligned columns for a terminal, padded by display width so Hangul names line up.
enum TextTable {
    /// One line of `cells`, each padded to its width (0: the last column, not padded). A cell's
    /// control characters (ESC, CR, NUL, a line break, a bidirectional override…) are written
    /// as `\u{001B}`, `\r`: whatever a visitor's cookie or a database holds, the table never
    /// sends the operator's terminal an escape sequence, nor splits or reorders a row.
    static func line(_ cells: [String], widths: [Int]) -> String {
        var line = ""
        for (cell, width) in zip(cells, widths) {
            let flat = Quoted.escaping(cell, only: Quoted.isTerminalControl)
            line += flat
            if width > 0 { line += String(repeating: " ", count: max(1, width - DisplayWidth.of(flat) + 1)) }
        }
        return line + "\n"
    }
}
