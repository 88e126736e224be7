/// The fields of a paper visitor log a venue may ask for (none by default): asked once in a
/// form, remembered on the device, recorded with each check-in.
public struct Visitor: Hashable, Sendable {
    /// The visitor's name as typed; nil when not asked.
    public let name: String?
    /// The visitor's phone number, digits only (`01012345678`); nil when not asked.
    public let phone: String?

    /// The longest name kept, in characters (a longer one is refused by the form).
    public static let maximumNameLength = 64

    /// A visitor with these fields; `phone` is normalised to its digits.
    public init(name: String?, phone: String?) {
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
        self.phone = phone.flatMap(Visitor.normalizedPhone)
    }

    /// The digits of a phone number as people type it (`010-1234-5678`, `+82 10 1234 5678`);
    /// nil when it has other characters or not 7-15 digits (E.164 allows at most 15).
    public static func normalizedPhone(_ text: String) -> String? {
        var digits = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9": digits.unicodeScalars.append(scalar)
            case " ", "-", "(", ")", ".", "+": continue
            default: return nil
            }
        }
        return (7...15).contains(digits.count) ? digits : nil
    }

    /// Whether `name` may be kept as a visitor's name: 1-64 characters after trimming, and no
    /// control or format character (ESC, NUL, CR, bidi overrides such as U+202E, zero-width
    /// ones): nothing that could rewrite an operator's terminal or reorder what an export shows.
    /// The form and the visitor cookie are checked alike.
    public static func isAcceptableName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength && !name.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
            default: false
            }
        }
    }

    /// `text` as a name is kept, by whoever typed it (the visitor form, its cookie, staff at the
    /// console or the shell): without the white space around it (a phone keyboard's trailing
    /// space, a full-width U+3000), then `isAcceptableName`; nil when that refuses it. The one
    /// rule for every name the log keeps.
    public static func acceptableName(_ text: String) -> String? {
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed = trimmed.dropFirst() }
        while trimmed.last?.isWhitespace == true { trimmed = trimmed.dropLast() }
        let name = String(trimmed)
        return isAcceptableName(name) ? name : nil
    }

    /// Whether the visitor gave every field in `fields`.
    public func provides(_ fields: VisitorFields) -> Bool {
        (!fields.contains(.name) || name != nil) && (!fields.contains(.phone) || phone != nil)
    }
}

/// Which visitor fields a venue asks for.
public struct VisitorFields: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The visitor's name.
    public static let name = VisitorFields(rawValue: 1)
    /// The visitor's phone number.
    public static let phone = VisitorFields(rawValue: 2)
}
