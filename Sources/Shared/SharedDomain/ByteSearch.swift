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

    /// What the verifier must know of an input before it reads it (one pass, eight bytes a
    /// word, no branch per word): whether it holds a control byte (below 0x20, or DEL), a `/`,
    /// a byte above ASCII, a `?` or a `#`. Each finding is a "has zero byte" test ORed over the
    /// words and read once at the end: exact as a yes or no, since a borrow that could mark a
    /// wrong byte starts only at a byte that matches. Control bytes, DEL and bytes above ASCII
    /// share one test (below 0x20 or from 0x7F on); an input that has one of them (a typed safe
    /// number, a malformed line) is told apart by a byte loop.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        guard let base = UnsafeRawPointer(bytes.baseAddress), bytes.count >= 8 else { return scanBytes(bytes) }
        let sevenBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
        var unusual: UInt64 = 0, slash: UInt64 = 0, query: UInt64 = 0
        @inline(__always) func add(_ word: UInt64) {
            // Below 0x20 | (0x7F or 0xFF in the low seven bits + 1 carries into the high bit) | high.
            unusual |= (word &- ones &* 0x20) & ~word | ((word & sevenBits) &+ ones) | word
            slash |= zeroBytes(word ^ ones &* UInt64(UInt8(ascii: "/")))
            query |= zeroBytes(word ^ ones &* UInt64(UInt8(ascii: "?"))) | zeroBytes(word ^ ones &* UInt64(UInt8(ascii: "#")))
        }
        var offset = 0
        while offset + 8 <= bytes.count {
            add(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        // The last eight bytes again, overlapping: each finding is only whether, not where.
        if offset < bytes.count { add(base.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)) }
        if unusual & highs != 0 { return scanBytes(bytes) }
        return Scan(hasControl: false, hasSlash: slash & highs != 0, hasNonASCII: false, hasQueryOrFragment: query & highs != 0)
    }

    /// `scan` a byte at a time.
    private static func scanBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        var scan = Scan()
        for byte in bytes {
            scan.hasControl = scan.hasControl || byte < 0x20 || byte == 0x7F
            scan.hasSlash = scan.hasSlash || byte == UInt8(ascii: "/")
            scan.hasNonASCII = scan.hasNonASCII || byte >= 0x80
            scan.hasQueryOrFragment = scan.hasQueryOrFragment || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        }
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
