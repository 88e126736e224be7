/// RFC 4180 fields, written as bytes.
enum CSV {
    /// Appends `text` as one field: quoted when it holds a comma, quote, CR or LF (quotes doubled).
    /// A field people typed (a visitor's or an operator's name) that begins with `=`, `+`, `-`,
    /// `@`, a tab or a CR gets a leading `'`: a spreadsheet opening the export would otherwise
    /// run it as a formula (CSV injection).
    static func appendField(_ text: String, typedByPeople: Bool = false, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            // Index loops: an export calls this a few times a row.
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
            if typedByPeople, !bytes.isEmpty, isFormulaStart(bytes[0]) { out.append(UInt8(ascii: "'")) }
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
