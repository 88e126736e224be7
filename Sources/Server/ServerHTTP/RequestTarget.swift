import SharedDomain

/// The request-target as it came, before libmicrohttpd decodes it in place: the only place
/// where an encoded separator can still be told from a real one. Decoded, `/C/HALL-1/T%2F..`
/// is a path of other segments, and `T%00x` is a C string cut at `T` — which checks in.
enum RequestTarget {
    /// Checks the raw request-target `bytes` (path and query): at most `limit` bytes, visible
    /// ASCII but `#` only; in the path, every `%` followed by two hex digits that do not encode a
    /// control byte or one of `/ \ . % ; ? #`. The query is decoded by name, so its escapes
    /// are left to the site.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(RequestRefusal) {
        guard bytes.count <= limit else { throw .targetTooLong }
        var inPath = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // A fragment is never sent: a raw `#` is as malformed as a space.
            guard byte > 0x20, byte < 0x7f, byte != UInt8(ascii: "#") else { throw .malformedTarget }
            if byte == UInt8(ascii: "?") {
                inPath = false
            } else if byte == UInt8(ascii: "%"), inPath {
                guard index + 2 < bytes.count, let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue else {
                    throw .malformedTarget
                }
                if isForbiddenWhenEncoded(high << 4 | low) { throw .encodedSeparator }
                index += 2
            }
            index += 1
        }
    }

    /// A byte that must not appear percent-encoded in a path: a control byte, or one that
    /// separates or escapes something in some reader of paths (the site's router, a proxy,
    /// a file system): `/`, `\`, `.` (dot segments), `%` (double decoding), `;`, `?`, `#`.
    static func isForbiddenWhenEncoded(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7f || "/\\.%;?#".utf8.contains(byte)
    }
}
