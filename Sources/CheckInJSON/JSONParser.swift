/// Parses JSON text into a `JSONValue`. Strict (RFC 8259) except that numbers must be integers,
/// which is all qrcheckin writes. Depth is bounded so hostile input cannot exhaust the stack.
public struct JSONParser {
    /// Why a text is not JSON; `offset` is the byte where parsing stopped.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let offset: Int
        public let message: String
        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Parses `text`; the whole text must be one value (whitespace around it allowed).
    public static func parse(_ text: String) throws(Failure) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses UTF-8 `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ message: String) -> Failure { Failure(offset: index, message: message) }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(literal)") }
            index += 1
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try container(open: "{")
        case UInt8(ascii: "["): return try container(open: "[")
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func container(open: Character) throws(Failure) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { throw failure("nested too deeply") }
        index += 1
        let close = UInt8(ascii: open == "{" ? "}" : "]")
        var members: [(String, JSONValue)] = []
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            return open == "{" ? .object([]) : .array([])
        }
        while true {
            if open == "{" {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                skipSpace()
                try expect(":")
                members.append((key, try value()))
            } else {
                elements.append(try value())
            }
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == close {
                index += 1
                return open == "{" ? .object(members) : .array(elements)
            }
            try expect(",")
        }
    }

    private mutating func number() throws(Failure) -> Int64 {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard let number = Int64(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            index = start
            throw failure("expected a value")
        }
        return number
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index  // start of a run of plain bytes
        func flush(_ parser: JSONParser, upTo end: Int, into scalars: inout String.UnicodeScalarView) throws(Failure) {
            guard let text = String(validating: parser.bytes[run..<end], as: UTF8.self) else {
                throw parser.failure("invalid UTF-8 in a string")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw failure("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                try flush(self, upTo: index, into: &scalars)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
                    scalars.append(scalar)
                default: throw failure("invalid escape")
                }
                run = index
            } else {
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count,
              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw failure("invalid \\u escape") }
        index += 4
        return code
    }
}
