import ServerDomain
import SharedDomain

/// Markup that is safe to send: every page of both sites is made of it. Text goes in escaped
/// unless it says otherwise:
///
/// ```swift
/// let page: HTML = "<p class=\"note\">\(name)</p>"   // `name`, a String, is escaped
/// let card: HTML = "<main>\(page)</main>"             // an HTML value nests as it is
/// let count: HTML = "<td>\(visits.count)</td>"        // numbers and ids need no escaping
/// ```
///
/// A string literal is markup as written in this code (`StaticString`: it cannot come from a
/// request). Interpolating a `String` escapes `& < > " '`, so the same text is safe as element
/// content and as a quoted attribute value (always quote attributes: `href="\(link)"`).
/// Markup made some other way enters only through `HTML(unescaped:)`, the one door, which a
/// grep finds. Stored as UTF-8 bytes: a page ends as a response body, without a copy.
public struct HTML: Sendable, Hashable, CustomStringConvertible {
    /// The markup's UTF-8 bytes.
    public private(set) var bytes: [UInt8]

    /// No markup.
    public init() {
        bytes = []
    }

    /// The one door for raw markup: `markup` is taken as it is, unescaped. Only for markup
    /// whose every byte this code wrote (never anything a request, a setting or the ledger
    /// holds); each use says why it cannot be a literal.
    public init(unescaped markup: String) {
        bytes = Array(markup.utf8)
    }

    /// Whether there is no markup.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The markup as text.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// `lhs` then `rhs`.
    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        var result = lhs
        result += rhs
        return result
    }

    /// Appends `rhs`.
    public static func += (lhs: inout HTML, rhs: HTML) {
        lhs.bytes.append(contentsOf: rhs.bytes)
    }

    // MARK: escaping: here and nowhere else

    /// Whether `byte` must be escaped: `&`, `<`, `>`, `"` and `'`, the characters that end
    /// text or a quoted attribute value. UTF-8 bytes of other characters are never these.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }

    /// Appends `text` to `bytes`, escaped: `&amp; &lt; &gt; &quot; &#39;`. Text without any of
    /// the five (nearly all of it) is copied in one go.
    fileprivate static func escape(_ text: String, into bytes: inout [UInt8]) {
        // A native string lends its bytes in place; a bridged one (none here) is copied first.
        let lent = text.utf8.withContiguousStorageIfAvailable { utf8 in
            escape(utf8, into: &bytes)
            return true
        }
        if lent == nil { escape(Array(text.utf8), into: &bytes) }
    }

    private static func escape(_ utf8: some Collection<UInt8>, into bytes: inout [UInt8]) {
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let byte = utf8[index]
            if needsEscape(byte) {
                bytes.append(contentsOf: utf8[start..<index])
                switch byte {
                case 0x26: bytes.append(contentsOf: "&amp;".utf8)
                case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
                case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
                case 0x22: bytes.append(contentsOf: "&quot;".utf8)
                default: bytes.append(contentsOf: "&#39;".utf8)
                }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        bytes.append(contentsOf: utf8[start..<utf8.endIndex])
    }
}

extension HTML: ExpressibleByStringInterpolation {
    /// Literal markup: text written in this code, taken as it is.
    public init(stringLiteral literal: StaticString) {
        bytes = []
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Literal markup with values interpolated: each escaped as its type says.
    public init(stringInterpolation: StringInterpolation) {
        bytes = stringInterpolation.bytes
    }

    /// A literal with interpolated values: literal parts as written, strings escaped, HTML nested.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var bytes: [UInt8] = []

        /// Room for the literal parts and a few bytes per value.
        public init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// A literal part: markup as written.
        public mutating func appendLiteral(_ literal: StaticString) {
            literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        /// Text: escaped, as element content or a quoted attribute value.
        public mutating func appendInterpolation(_ text: String) {
            HTML.escape(text, into: &bytes)
        }

        /// Markup: nested as it is.
        public mutating func appendInterpolation(_ html: HTML) {
            bytes.append(contentsOf: html.bytes)
        }

        /// A number: its decimal digits (and sign), which need no escaping.
        public mutating func appendInterpolation(_ number: some BinaryInteger) {
            bytes.append(contentsOf: String(number).utf8)
        }

        /// A venue id: `0-9 A-Z - .` only (`VenueID` refuses anything else), nothing to escape.
        public mutating func appendInterpolation(_ venue: VenueID) {
            bytes.append(contentsOf: venue.rawValue.utf8)
        }

        /// A receipt number: digits only.
        public mutating func appendInterpolation(_ receipt: ReceiptID) {
            appendInterpolation(receipt.rawValue)
        }
    }
}

extension Sequence<HTML> {
    /// The markups one after another, `separator` between them.
    public func joined(separator: HTML = HTML()) -> HTML {
        var result = HTML()
        for (index, html) in enumerated() {
            if index > 0 { result += separator }
            result += html
        }
        return result
    }
}
