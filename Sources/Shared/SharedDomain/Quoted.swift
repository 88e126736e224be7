/// Input quoted in a message: `'text'`, with every control or invisible character escaped and
/// anything longer than `limit` characters cut. The one way an error or log line shows text a
/// user, a file or a client supplied, so that an ESC sequence cannot repaint the terminal that
/// shows the message, a line separator cannot fake a second log line, and a 5,000-character
/// line does not bury the message.
///
/// Escapes: `\t`, `\n`, `\r`, `\\`, and `\u{XXXX}` for the other controls (C0, DEL, C1), format
/// characters (U+200B, U+FEFF, bidirectional overrides), line and paragraph separators, and
/// spaces other than U+0020 (a no-break space looks like a space but is not one).
///
/// Text holding a run of 32 or more hex digits (a master secret or venue key pasted into the
/// wrong setting) is not shown at all, only its length: no message ever carries a key.
public struct Quoted: CustomStringConvertible, Sendable {
    /// The most characters shown; the rest is cut, and the message says how long it was.
    public static let limit = 40

    /// The text as given.
    public let text: String

    /// Quotes `text`.
    public init(_ text: some StringProtocol) {
        self.text = String(text)
    }

    /// `'text'`, escaped; when cut, `'first characters…' (N characters)`.
    public var description: String {
        let scalars = text.unicodeScalars
        if Self.holdsKeyMaterial(text) { return "(\(scalars.count) characters not shown: they look like a secret key)" }
        var shown = ""
        var count = 0
        for scalar in scalars {
            if count == Self.limit { break }
            Self.append(scalar, to: &shown, escapingBackslash: true)
            count += 1
        }
        guard count == Self.limit, scalars.count > Self.limit else { return "'" + shown + "'" }
        return "'" + shown + "…' (\(scalars.count) characters)"
    }

    /// `text` with the same characters escaped but `\\` kept (it may already hold a `Quoted`),
    /// neither quoted nor cut: for whole messages on their way to a terminal or the journal, so
    /// a path or a reason that slipped through unquoted cannot carry a control character either.
    public static func escaping(_ text: some StringProtocol) -> String {
        escaping(text, only: isEscaped)
    }

    /// `text` with the characters `isEscaped` picks escaped as messages escape them (`\t`,
    /// `\u{001B}`), the rest as it is: for text an operator's table or spreadsheet shows, where
    /// only `isTerminalControl` characters must go and a no-break space may stay.
    public static func escaping(_ text: some StringProtocol, only isEscaped: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { appendEscape(scalar, to: &result) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Whether `scalar` can change what a terminal or a viewer shows around it: a C0 or C1
    /// control or DEL (ESC starts a terminal's control sequence, CR rewrites a line, NUL ends a C
    /// string), or a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069:
    /// they reorder the text that follows, "Trojan Source"). What no operator output writes raw.
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `scalar` is a control or invisible character that is shown as `\u{XXXX}` (or
    /// `\t`, `\n`, `\r`) in messages.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate, .unassigned:
            return true
        default:
            return false
        }
    }

    /// Whether `text` has a run of at least 32 hex digits with both digits and letters in it:
    /// as long as the shortest secret, and as mixed as random hex is (`bbbb…` is not a key).
    static func holdsKeyMaterial(_ text: String) -> Bool {
        var run = 0, digits = false, letters = false
        for byte in text.utf8 {
            let isDigit = (0x30...0x39).contains(byte), isLetter = (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
            guard isDigit || isLetter else {
                (run, digits, letters) = (0, false, false)
                continue
            }
            run += 1
            digits = digits || isDigit
            letters = letters || isLetter
            if run >= 32 && digits && letters { return true }
        }
        return false
    }

    private static func append(_ scalar: Unicode.Scalar, to text: inout String, escapingBackslash: Bool) {
        guard isEscaped(scalar) || (escapingBackslash && scalar == "\\") else { return text.unicodeScalars.append(scalar) }
        appendEscape(scalar, to: &text)
    }

    private static func appendEscape(_ scalar: Unicode.Scalar, to text: inout String) {
        switch scalar {
        case "\t": text += "\\t"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\\": text += "\\\\"
        default:
            let digits = String(scalar.value, radix: 16, uppercase: true)
            text += "\\u{" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "}"
        }
    }
}
