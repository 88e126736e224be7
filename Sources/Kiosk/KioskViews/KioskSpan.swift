import SharedText
/// A run of text on a kiosk line with one look. Lines are lists of spans so they can be measured,
/// centred and cut to the terminal width before any escape sequence is added.
public struct KioskSpan: Equatable, Sendable {
    /// How a span looks.
    public enum Look: Equatable, Sendable {
        /// The terminal's own colours.
        case plain
        /// Bold: the safe number, titles.
        case bold
        /// Red and bold (bold only without colour): the seconds left, warnings.
        case alert
        /// Pre-rendered text with its own escape sequences (a QR row); never cut.
        case raw
        /// A file path: cut at the front ("...") so its end, the part that tells, stays.
        case path
    }

    /// The text.
    public var text: String
    /// Its look.
    public var look: Look

    /// Creates a span.
    public init(_ text: String, _ look: Look = .plain) {
        self.text = text
        self.look = look
    }

    /// Columns the span takes.
    public var width: Int { DisplayWidth.of(text) }

    /// The span cut to at most `columns` columns (never splitting a wide character).
    public func truncated(to columns: Int) -> KioskSpan {
        guard look != .raw, width > columns else { return self }
        if look == .path {
            // Paths are ASCII in practice; any wide character is simply counted as it comes.
            var kept = [Unicode.Scalar](), used = 3
            for scalar in text.unicodeScalars.reversed() {
                let next = DisplayWidth.of(scalar)
                if used + next > columns { break }
                kept.append(scalar)
                used += next
            }
            var result = columns >= 3 ? "..." : ""
            result.unicodeScalars.append(contentsOf: kept.reversed())
            return KioskSpan(result, look)
        }
        var result = "", used = 0
        for scalar in text.unicodeScalars {
            let next = DisplayWidth.of(scalar)
            if used + next > columns { break }
            result.unicodeScalars.append(scalar)
            used += next
        }
        return KioskSpan(result, look)
    }

    /// The span with its escape sequences; each styled span resets after itself.
    public func rendered(color: Bool) -> String {
        switch look {
        case .plain, .raw, .path: text
        case .bold: "\u{1B}[1m" + text + "\u{1B}[0m"
        case .alert: (color ? "\u{1B}[1;31m" : "\u{1B}[1m") + text + "\u{1B}[0m"
        }
    }
}
