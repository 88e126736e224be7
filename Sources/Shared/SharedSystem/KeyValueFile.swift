/// The `key = value` text format of config and settings files: one setting a line, `#`
/// comments, blank lines ignored, whitespace around keys and values trimmed, no quoting.
public enum KeyValueFile {
    /// One setting and the line it was on (for error messages).
    public struct Entry: Equatable, Sendable {
        public let key: String
        public let value: String
        public let line: Int

        /// Creates an entry.
        public init(key: String, value: String, line: Int) {
            self.key = key
            self.value = value
            self.line = line
        }
    }

    /// A line that is not `key = value`.
    public struct SyntaxError: Error, Equatable, Sendable {
        public let line: Int
        public let message: String
    }

    /// Parses `text` into entries in file order.
    ///
    /// Only a newline ends a line (`\r\n` too: the `\r` is dropped); any other control
    /// character (a vertical tab, a form feed, NEL U+0085, U+2028, a stray `\r`, ESC) is an
    /// error, so no line can hide a second setting behind a character an editor shows as a
    /// line break. A byte-order mark at the start (some Windows editors write one) is skipped.
    /// A line that is not `key = value` is never quoted in the error: it could be a secret
    /// (`--config` given the secret file by mistake), so the message names the line only.
    public static func parse(_ text: String) throws(SyntaxError) -> [Entry] {
        var entries: [Entry] = []
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        for (index, raw) in scalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let scalars = raw.last == "\r" ? raw.dropLast() : raw
            if let bad = scalars.firstIndex(where: isForbidden) {
                let column = scalars.distance(from: scalars.startIndex, to: bad) + 1
                throw SyntaxError(line: number, message: "\(describe(scalars[bad])) at column \(column): only a newline "
                    + "ends a line, and no other control character may appear in one")
            }
            let line = String(String.UnicodeScalarView(scalars)).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: number, message: looksLikeKey(line)
                    ? "this looks like a secret or key file, not a file of 'key = value' lines (the line is not shown)"
                    : "expected 'key = value', but the line has no '=' (it is not shown: it could be a secret)")
            }
            let key = line[..<equals].trimmingWhitespace()
            guard !key.isEmpty else { throw SyntaxError(line: number, message: "missing key before '='") }
            entries.append(Entry(key: String(key), value: String(line[line.index(after: equals)...].trimmingWhitespace()), line: number))
        }
        return entries
    }

    /// A control character other than tab, or a line or paragraph separator.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\t" { return false }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// A forbidden character's name and code point, for the message.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let names: [UInt32: String] = [0x00: "a NUL byte", 0x0B: "a vertical tab", 0x0C: "a form feed",
                                       0x0D: "a carriage return", 0x1B: "an escape character",
                                       0x85: "a next-line character", 0x2028: "a line separator",
                                       0x2029: "a paragraph separator"]
        let digits = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return "\(names[scalar.value] ?? "a control character") (\(code))"
    }

    /// Whether a line without `=` is the content of a key file: a master secret (hex) or a
    /// venue key (`QRCHECKIN-VENUE-KEY-…`).
    private static func looksLikeKey(_ line: Substring) -> Bool {
        line.uppercased().hasPrefix("QRCHECKIN-VENUE-KEY") || (line.count >= 32 && line.allSatisfy(\.isHexDigit))
    }

    /// Renders entries as file text with a leading comment.
    public static func render(_ pairs: [(String, String)], comment: String) -> String {
        "# \(comment)\n" + pairs.map { "\($0.0) = \($0.1)\n" }.joined()
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
