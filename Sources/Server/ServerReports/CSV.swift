import SharedDomain

/// RFC 4180 fields, written as bytes.
enum CSV {
    /// Appends `text` as one field: quoted when it holds a comma or a quote (quotes doubled).
    /// Control characters (C0, DEL, C1) and bidirectional overrides and isolates are written as
    /// `\u{001B}`, `\r`, `\n` (`Quoted.isTerminalControl`): a CR, a NUL or an ESC in a stored
    /// name must not reach a spreadsheet or a terminal that shows the file. A field that then
    /// begins with `=`, `+`, `-`, `@`, a tab or a CR gets a leading `'`: a spreadsheet opening
    /// the export would otherwise run it as a formula (CSV injection).
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
            if !bytes.isEmpty, isFormulaStart(bytes[0]) { out.append(UInt8(ascii: "'")) }
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

    /// Whether a cell beginning with `byte` is a formula to a spreadsheet: = + - @, tab, CR.
    static func isFormulaStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@") || byte == 9 || byte == 13
    }
}
