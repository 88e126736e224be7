import SharedJSON

/// One JSON object a line, written member by member into a byte buffer (no `JSONValue` tree
/// per row); strings are quoted by `JSONValue`'s own rules.
enum JSONLine {
    /// `{`.
    static func begin(_ out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
    }

    /// `}` and the line end.
    static func end(_ out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: "}"), 10])
    }

    /// `"name":` (after a comma unless it is the first member).
    static func key(_ name: StaticString, to out: inout [UInt8]) {
        if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// A string member, `null` when nil.
    static func text(_ name: StaticString, _ value: String?, to out: inout [UInt8]) {
        key(name, to: &out)
        (value.map(JSONValue.string) ?? .null).write(to: &out)
    }

    /// A number member, `null` when nil.
    static func number(_ name: StaticString, _ value: Int64?, to out: inout [UInt8]) {
        key(name, to: &out)
        (value.map(JSONValue.number) ?? .null).write(to: &out)
    }
}
