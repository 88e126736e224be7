import CPNG

/// zlib's settings for one PNG: deflate is half of a rotation's instructions, so they are chosen
/// by measurement (docs/BENCHMARKS.md, "PNG compression"), per scale.
struct PNGCompression: Equatable, Sendable {
    /// zlib's level, 0-9 (or Z_DEFAULT_COMPRESSION, which is 6).
    let level: Int32
    /// zlib's strategy (Z_DEFAULT_STRATEGY, Z_FILTERED…).
    let strategy: Int32
    /// zlib's memLevel, 1-9: the size of its hash table and symbol buffer.
    let memoryLevel: Int32

    /// What libpng does when told nothing (and what every scale but 8 keeps: their bytes are unchanged).
    static let zlibDefault = PNGCompression(level: Z_DEFAULT_COMPRESSION, strategy: Z_DEFAULT_STRATEGY, memoryLevel: 8)

    /// Scale 8 (the default: one byte a module). Level 4 with Z_FILTERED (matches shorter than
    /// 6 bytes written as literals) costs 40 % fewer deflate instructions than level 6 and,
    /// over 200 check-in URLs of four venue lengths, makes PNGs 1.4 % smaller on average (158
    /// smaller, 37 larger by at most 16 bytes). memLevel 6 writes the same bytes for these
    /// images with a quarter of the hash table to clear for each one. At other scales level 4
    /// makes most images larger (+57 % at scale 16).
    static let scaleEight = PNGCompression(level: 4, strategy: Z_FILTERED, memoryLevel: 6)

    /// The settings for `scale` pixels a module.
    static func forScale(_ scale: Int) -> PNGCompression {
        scale == 8 ? scaleEight : zlibDefault
    }
}
