/// How many terminal columns text takes: East Asian wide characters (Hangul syllables, CJK,
/// full-width forms) take two, combining marks none. Escape sequences (SGR) take none.
public enum DisplayWidth {
    /// Columns `text` takes in a terminal, escape sequences skipped.
    public static func of(_ text: String) -> Int {
        visibleText(text).unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// `text` without its escape sequences: what a person (or `tmux capture-pane`) sees.
    public static func visibleText(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                // CSI sequences end with a byte in @...~; "[" itself is not a final byte.
                if scalar.value >= 0x40 && scalar.value <= 0x7E && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Columns one scalar takes (0, 1 or 2), after wcwidth's rules for the ranges that matter here.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value >= 0x1160 && value <= 0x11FF { return 0 }  // Hangul medial and final jamo combine.
        return isWide(value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F,  // Hangul initial jamo
             0x2E80...0x303E, 0x3041...0x33FF,  // CJK radicals, punctuation, kana, compatibility jamo
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,  // CJK ideographs, Yi
             0xA960...0xA97F,  // Hangul jamo extended-A
             0xAC00...0xD7A3,  // Hangul syllables
             0xF900...0xFAFF, 0xFE30...0xFE4F,  // CJK compatibility
             0xFF00...0xFF60, 0xFFE0...0xFFE6,  // full-width forms
             0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // emoji presentation blocks
             0x20000...0x3FFFD:  // CJK extensions
            return true
        default:
            return false
        }
    }
}
