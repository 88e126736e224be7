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
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
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

    /// An integer: an optional '-' and decimal digits, accumulated as they are read (no String
    /// per number); out of Int64's range is not a value.
    private mutating func number() throws(Failure) -> Int64 {
        let start = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        var valid = true
        let firstDigit = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            // Accumulated negative: Int64.min has no positive counterpart.
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, underflow) = shifted.subtractingReportingOverflow(digit)
            valid = valid && !overflow && !underflow
            value = next
            index += 1
        }
        guard valid, index > firstDigit, negative || value != Int64.min else {
            index = start
            throw failure("expected a value")
        }
        return negative ? value : -value
    }

    /// A string, built once: a run without escapes (the common case) is validated and copied in
    /// one go; escapes are decoded into a byte buffer that becomes the String at the end.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        var high: UInt8 = 0  // the bits of every byte so far: below 0x80, the run is ASCII
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") { break }
            if byte == UInt8(ascii: "\"") {
                let text = try text(start..<index, ascii: high < 0x80)
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw failure("control character in a string") }
            high |= byte
            index += 1
        }
        guard index < bytes.count else { throw failure("unterminated string") }
        var decoded = [UInt8]()
        decoded.reserveCapacity(index - start + 16)
        decoded.append(contentsOf: bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = index
                index += 1
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    index = end
                    throw failure("invalid UTF-8 in a string")
                }
                return text
            }
            guard byte >= 0x20 else { throw failure("control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    try expect("\\u")
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
                UTF8.encode(scalar) { decoded.append($0) }
            default: throw failure("invalid escape")
            }
        }
        throw failure("unterminated string")
    }

    /// The UTF-8 bytes of `range` as a String, validated in one pass (ASCII needs none, and
    /// `String(decoding:)` is the cheaper call: most of qrcheckin's strings are ASCII).
    private func text(_ range: Range<Int>, ascii: Bool) throws(Failure) -> String {
        let text = bytes.withUnsafeBufferPointer { all -> String? in
            let run = UnsafeBufferPointer(rebasing: all[range])
            return ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
        }
        guard let text else { throw Failure(offset: range.upperBound, message: "invalid UTF-8 in a string") }
        return text
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count,
              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw failure("invalid \\u escape") }
        index += 4
        return code
    }
}
