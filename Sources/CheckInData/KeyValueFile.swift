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
    public static func parse(_ text: String) throws(SyntaxError) -> [Entry] {
        var entries: [Entry] = []
        // `isNewline`, not "\n": Swift reads "\r\n" as one Character, so files written on
        // Windows would otherwise fuse their lines.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: index + 1, message: "expected 'key = value', got '\(line)'")
            }
            let key = line[..<equals].trimmingWhitespace()
            guard !key.isEmpty else { throw SyntaxError(line: index + 1, message: "missing key before '='") }
            entries.append(Entry(key: String(key), value: String(line[line.index(after: equals)...].trimmingWhitespace()), line: index + 1))
        }
        return entries
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
