import SharedDomain

/// RFC 4180 fields, written as bytes.
enum CSV {
    /// Appends `text` as one field: quoted when it holds a comma or a quote (quotes doubled).
    /// Control characters (C0, DEL, C1) and bidirectional overrides and isolates are written as
    /// `\u{001B}`, `\r`, `\n` (`Quoted.isTerminalControl`): a CR, a NUL or an ESC in a stored
    /// name must not reach a spreadsheet or a terminal that shows the file. A field that then
    /// begins with `=`, `+`, `-`, `@`, a tab or a CR gets a leading `'`: a spreadsheet opening
    /// the export would otherwise run it as a formula (CSV injection); so does one that begins
    /// with a full-width or small form of those (`isFormulaStart`).
    static func appendField(_ text: String, to out: inout [UInt8]) {
        var text = text
        // Index loops: an export calls this a few times a row. The first pass only looks for
        // bytes that may start a control character (below 0x20, DEL; 0xC2 leads C1 controls,
        // 0xE2 the bidirectional ones): Hangul and ASCII names take no second pass.
        let mayHoldControls = text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 { return true }
                index += 1
            }
            return false
        }
        if mayHoldControls { text = Quoted.escaping(text, only: Quoted.isTerminalControl) }
        text.withUTF8 { bytes in
            var needsQuotes = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 13 || byte == 10 {
                    needsQuotes = true
                    break
                }
                index += 1
            }
            if needsQuotes { out.append(UInt8(ascii: "\"")) }
            if !bytes.isEmpty, startsFormula(bytes) { out.append(UInt8(ascii: "'")) }
            guard needsQuotes else {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { out.append(byte) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Whether a cell of these UTF-8 bytes begins as a formula does (`isFormulaStart` of its
    /// first character). ASCII decides on its first byte; only a lead byte of a 3-byte
    /// sequence (0xE0-0xEF, where the full-width and small forms live) decodes a character.
    static func startsFormula(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let first = bytes[0]
        if first < 0x80 { return isFormulaStart(Unicode.Scalar(first)) }
        guard first & 0xF0 == 0xE0, bytes.count >= 3 else { return false }
        let value = UInt32(first & 0x0F) << 12 | UInt32(bytes[1] & 0x3F) << 6 | UInt32(bytes[2] & 0x3F)
        return Unicode.Scalar(value).map(isFormulaStart) ?? false
    }

    /// Whether a cell beginning with `scalar` is a formula to a spreadsheet. Excel, LibreOffice
    /// Calc and Google Sheets evaluate a cell that begins with `=`, `+`, `-` or `@` (and one
    /// whose leading tab or CR they strip first: OWASP's CSV injection list). The full-width
    /// forms of those four (U+FF1D ＝, U+FF0B ＋, U+FF0D －, U+FF20 ＠, what a Korean, Japanese
    /// or Chinese keyboard types in full-width mode) and their small forms (U+FE66 ﹦, U+FE62 ﹢,
    /// U+FE63 ﹣, U+FE6B ﹫) are their compatibility equivalents (NFKC folds them to ASCII), and
    /// spreadsheets in East Asian locales fold them so when a cell is read or edited: they are
    /// formula starts too. Other characters NFKC leaves alone (U+2212 MINUS SIGN) start no formula.
    static func isFormulaStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D: true             // = + - @, tab, CR
        case 0xFF1D, 0xFF0B, 0xFF0D, 0xFF20: true                  // full-width ＝ ＋ － ＠
        case 0xFE66, 0xFE62, 0xFE63, 0xFE6B: true                  // small ﹦ ﹢ ﹣ ﹫
        default: false
        }
    }
}
