import SharedText

/// Aligned columns for a terminal, padded by display width so Hangul names line up.
enum TextTable {
    /// One line of `cells`, each padded to its width (0: the last column, not padded).
    static func line(_ cells: [String], widths: [Int]) -> String {
        var line = ""
        for (cell, width) in zip(cells, widths) {
            let flat = String(cell.map { $0.isNewline || $0 == "\t" ? " " : $0 })
            line += flat
            if width > 0 { line += String(repeating: " ", count: max(1, width - DisplayWidth.of(flat) + 1)) }
        }
        return line + "\n"
    }
}
