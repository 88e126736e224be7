/// The `Qrcheckin-Report` header of a report: `v1; t=<Unix ms>; n=<nonce>; mac=<64 hex>`
/// (docs/TOKEN.md, "Kiosk reports"). Parsing checks only the shape; `ReportAuthenticator`
/// checks the MAC and the server its clock and the nonces it has seen.
public struct ReportSignature: Equatable, Sendable {
    /// The header's name.
    public static let headerName = "Qrcheckin-Report"
    /// The one version this format knows.
    public static let version = "v1"
    /// The longest header value accepted (a well-formed one is 133 bytes).
    public static let maximumLength = 256

    /// The kiosk's clock when it signed, Unix milliseconds.
    public let time: Int64
    /// The report's nonce.
    public let nonce: ReportNonce
    /// HMAC-SHA256 of the report's message, 32 bytes.
    public let mac: [UInt8]

    /// A signature.
    public init(time: Int64, nonce: ReportNonce, mac: [UInt8]) {
        self.time = time
        self.nonce = nonce
        self.mac = mac
    }

    /// The header's value.
    public var headerValue: String {
        "\(Self.version); t=\(time); n=\(nonce.text); mac=\(Hex.encode(mac))"
    }

    /// Reads a header value: `v1` first, then `t`, `n` and `mac` once each in any order,
    /// separated by `;` and optional spaces. `t` is canonical decimal milliseconds (no sign, no
    /// leading zero), `n` 32 lower-case hex digits, `mac` 64 hex digits.
    public init(headerValue: String) throws(ReportFormatError) {
        let parameters = try ReportHeader.parameters(headerValue, expecting: ["t", "n", "mac"])
        guard let time = ReportHeader.milliseconds(parameters["t"]!) else {
            throw .malformed("t must be Unix milliseconds in canonical decimal, got \(Quoted(parameters["t"]!))")
        }
        guard let nonce = ReportNonce(text: parameters["n"]!) else {
            throw .malformed("n must be 32 lower-case hex digits")
        }
        self.init(time: time, nonce: nonce, mac: try ReportHeader.mac(parameters["mac"]!))
    }
}

/// The `Qrcheckin-Answer` header of a server's answer: `v1; mac=<64 hex>`.
public struct AnswerSignature: Equatable, Sendable {
    /// The header's name.
    public static let headerName = "Qrcheckin-Answer"

    /// HMAC-SHA256 of the answer's message (bound to the report's nonce), 32 bytes.
    public let mac: [UInt8]

    /// A signature.
    public init(mac: [UInt8]) {
        self.mac = mac
    }

    /// The header's value.
    public var headerValue: String { "\(ReportSignature.version); mac=\(Hex.encode(mac))" }

    /// Reads a header value: `v1; mac=<64 hex>`.
    public init(headerValue: String) throws(ReportFormatError) {
        let parameters = try ReportHeader.parameters(headerValue, expecting: ["mac"])
        self.init(mac: try ReportHeader.mac(parameters["mac"]!))
    }
}

/// Why a report's or an answer's header or body is not of this format.
public enum ReportFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another version than `v1`.
    case unknownVersion(String)
    /// Not of the format; the text says what is wrong.
    case malformed(String)

    public var description: String {
        switch self {
        case .unknownVersion(let text): "unknown signature version \(Quoted(text)) (this qrcheckin knows v1)"
        case .malformed(let what): what
        }
    }
}

/// The parameter grammar both headers share.
enum ReportHeader {
    static func parameters(_ value: String, expecting names: Set<String>) throws(ReportFormatError) -> [String: String] {
        guard value.utf8.count <= ReportSignature.maximumLength else { throw .malformed("the header is too long") }
        let items = value.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard let version = items.first, !version.isEmpty else { throw .malformed("the header is empty") }
        guard version == ReportSignature.version else { throw .unknownVersion(version) }
        var found: [String: String] = [:]
        for item in items.dropFirst() {
            guard let equals = item.firstIndex(of: "=") else { throw .malformed("\(Quoted(item)) is not name=value") }
            let name = String(item[..<equals])
            guard names.contains(name) else { throw .malformed("unknown parameter \(Quoted(name))") }
            guard found[name] == nil else { throw .malformed("\(name) is given twice") }
            found[name] = String(item[item.index(after: equals)...])
        }
        for name in names.sorted() where found[name] == nil { throw .malformed("\(name) is missing") }
        return found
    }

    static func milliseconds(_ text: String) -> Int64? {
        guard (1...16).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              text == "0" || text.utf8.first != UInt8(ascii: "0") else { return nil }
        return Int64(text)
    }

    static func mac(_ text: String) throws(ReportFormatError) -> [UInt8] {
        guard text.utf8.count == 64, let bytes = Hex.decode(text) else { throw .malformed("mac must be 64 hex digits") }
        return bytes
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (trimmed in UTF-8, no Character walk).
    var trimmingSpaces: String {
        var view = utf8[...]
        while let first = view.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { view = view.dropFirst() }
        while let last = view.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { view = view.dropLast() }
        return String(Substring(view))
    }
}
