/// A kiosk's name within its venue (`kiosk-name`, default the host name): 1–64 ASCII letters,
/// digits, `.`, `_` and `-`, starting with a letter or digit. Short and printable, so it is the
/// same in a report, a log line, a console page and a shell, and needs no escaping anywhere.
public struct KioskName: Hashable, Sendable, CustomStringConvertible {
    /// The longest name, in bytes (a host name's label limit is 63; a full name fits too).
    public static let maximumLength = 64

    /// The name.
    public let rawValue: String

    /// Validates `text` as a kiosk name; the error says what is wrong.
    public init(_ text: String) throws(KioskNameError) {
        guard !text.isEmpty else { throw KioskNameError(text: text, reason: "it is empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw KioskNameError(text: text, reason: "it is longer than \(Self.maximumLength) characters")
        }
        guard text.utf8.allSatisfy(Self.isAllowed) else {
            throw KioskNameError(text: text, reason: "only letters, digits, '.', '_' and '-' are allowed")
        }
        guard let first = text.utf8.first, Self.isAlphanumeric(first) else {
            throw KioskNameError(text: text, reason: "it must start with a letter or a digit")
        }
        rawValue = text
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    public var description: String { rawValue }
}

/// Text that is not a kiosk name, and why.
public struct KioskNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text refused.
    public let text: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "\(Quoted(text)) is not a kiosk name: \(reason)" }
}
