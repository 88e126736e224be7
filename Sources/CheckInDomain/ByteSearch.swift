/// Byte searches eight bytes a word (SWAR), for the verifier, which reads every URL of a stream
/// whole: a byte loop was a tenth of its time. Domain code has no C library, so no memchr.
enum ByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is `byte` (the classic "has zero byte" test on `word ^ pattern`).
    @inline(__always)
    private static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ ones &* UInt64(byte)
        return (x &- ones) & ~x & highs != 0
    }

    /// The index of the first `a` or `b` in `bytes`.
    static func first(_ a: UInt8, or b: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if contains(word, a) || contains(word, b) { break }  // the byte loop finds exactly where
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[bytes.startIndex + offset]
            if byte == a || byte == b { return bytes.startIndex + offset }
            offset += 1
        }
        return nil
    }

    /// The index of the last `byte` in `bytes`.
    static func last(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        var end = bytes.count  // bytes at and after `end` are not `byte`
        while end >= 8, !contains(base.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self), byte) {
            end -= 8
        }
        while end > 0 {
            end -= 1
            if bytes[bytes.startIndex + end] == byte { return bytes.startIndex + end }
        }
        return nil
    }

    /// Whether some byte of `word` is below `limit` (at most 128): the "has less" test. Exact as
    /// a yes or no: a borrow that could mark a wrong byte starts only at a byte that is below.
    @inline(__always)
    private static func containsBelow(_ word: UInt64, _ limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }

    /// What the verifier must know of an input before it reads it (one pass, eight bytes a
    /// word): whether it holds a control byte (below 0x20, or DEL), a `/`, a byte above ASCII,
    /// a `?` or a `#`.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        var scan = Scan()
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return scan }
        var offset = 0
        var control = false, slash = false, high = false, query = false
        while offset + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            control = control || containsBelow(word, 0x20) || contains(word, 0x7F)
            slash = slash || contains(word, UInt8(ascii: "/"))
            high = high || word & highs != 0
            query = query || contains(word, UInt8(ascii: "?")) || contains(word, UInt8(ascii: "#"))
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[bytes.startIndex + offset]
            control = control || byte < 0x20 || byte == 0x7F
            slash = slash || byte == UInt8(ascii: "/")
            high = high || byte >= 0x80
            query = query || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
            offset += 1
        }
        scan.hasControl = control
        scan.hasSlash = slash
        scan.hasNonASCII = high
        scan.hasQueryOrFragment = query
        return scan
    }

    /// `scan`'s findings.
    struct Scan: Equatable {
        /// A byte below 0x20 or DEL (0x7F).
        var hasControl = false
        /// A `/`.
        var hasSlash = false
        /// A byte of 0x80 or above.
        var hasNonASCII = false
        /// A `?` or a `#`.
        var hasQueryOrFragment = false
    }
}
