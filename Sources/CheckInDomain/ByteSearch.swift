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
}
