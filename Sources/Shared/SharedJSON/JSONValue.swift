/// A JSON value: enough of JSON for `current.json` and control replies, without Foundation
/// (which would cost the daemon several megabytes of resident memory).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Int64)
    case string(String)
    case array([JSONValue])
    /// Members in the order they are written.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string, if this is one.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The integer, if this is one.
    public var integer: Int64? { if case .number(let value) = self { value } else { nil } }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// Compact JSON text (no spaces), UTF-8 kept as is.
    public var serialized: String {
        String(decoding: serializedBytes, as: UTF8.self)
    }

    /// `serialized` as UTF-8 bytes, ready for a file or a socket.
    public var serializedBytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(512)  // current.json is ~400 bytes: one allocation in the common case
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text of this value to `out` a byte (or a run of bytes) at a time.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: Self.append("null", to: &out)
        case .bool(let value): Self.append(value ? "true" : "false", to: &out)
        case .number(let value): Self.append(value, to: &out)
        case .string(let value): Self.quote(value, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Decimal digits without going through `String(Int64)`.
    private static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude  // UInt64: Int64.min has no positive Int64
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in  // UInt64.max has 20
            var count = 0
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(digits[index]) }
        }
    }

    /// A JSON string, quoted as `ByteCursor.write(jsonString:)` does (one implementation).
    private static func quote(_ text: String, to out: inout [UInt8]) {
        out.append(capacity: ByteCursor.maximumJSONLength(of: text)) { $0.write(jsonString: text) }
    }
}
