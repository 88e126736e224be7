import KioskAdapters
import KioskCore
import SharedQR
import SharedQREncoder
import Testing

/// The PNG bytes for fixed inputs, captured from the one-module-at-a-time encoder (commit e1a6411)
/// before `packedRows` was rewritten to fill whole bytes: the optimised encoder must write the same
/// files. They are stored whole in `golden/png/` (a failure says where the bytes differ and keeps
/// the new file; `make golden` records them again). The two scale-8 images were recorded again
/// when that scale moved to zlib level 4 with Z_FILTERED and memLevel 6 (issue 24: 243 → 239 and
/// 437 → 426 bytes; bench/floor.c changed with them).
@Suite struct PNGGoldenTests {
    /// A reproducible matrix with no QR structure: every module pattern shows up.
    static func noise(size: Int, seed: UInt64) -> QRMatrix {
        var generator = SeededGenerator(state: seed)
        return QRMatrix(version: 0, size: size, modules: (0..<size * size).map { _ in generator.next() & 1 == 1 })
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let size: Int, seed: UInt64, scale: Int, margin: Int
        var testDescription: String { "\(size)x\(size) seed \(seed) scale \(scale) margin \(margin)" }
        /// Its golden file below `golden/`.
        var file: String { "png/\(size)-seed\(seed)-scale\(scale)-margin\(margin).png" }
    }

    @Test(arguments: [
        Case(size: 21, seed: 1, scale: 1, margin: 0),
        Case(size: 21, seed: 2, scale: 8, margin: 4),
        Case(size: 25, seed: 3, scale: 3, margin: 1),
        Case(size: 29, seed: 4, scale: 5, margin: 2),
        Case(size: 33, seed: 5, scale: 7, margin: 3),
        Case(size: 57, seed: 6, scale: 2, margin: 4),
        Case(size: 57, seed: 7, scale: 16, margin: 0),
        Case(size: 177, seed: 8, scale: 1, margin: 4),
        Case(size: 22, seed: 9, scale: 64, margin: 1),
    ])
    func noiseMatricesEncodeToTheCapturedBytes(_ golden: Case) throws {
        let png = try PNGEncoder(scale: golden.scale, margin: golden.margin).encode(Self.noise(size: golden.size, seed: golden.seed))
        GoldenBytes.expect(png, matches: golden.file)
    }

    /// The daemon's default image (scale 8, margin 4) of a real check-in URL, byte for byte.
    @Test func theDaemonsDefaultImageIsByteForByteTheCapturedFile() throws {
        let matrix = try QRCodeEncoder().encode(Self.url, level: .medium)
        let png = try PNGEncoder(scale: 8, margin: 4).encode(matrix)
        GoldenBytes.expect(png, matches: "png/checkin-url-scale8-margin4.png")
    }

    static let url = "HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOP"
}
