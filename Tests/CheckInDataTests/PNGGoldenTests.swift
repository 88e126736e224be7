import CheckInData
import CheckInDomain
import Testing

/// The PNG bytes for fixed inputs, captured from the one-module-at-a-time encoder (commit e1a6411)
/// before `packedRows` was rewritten to fill whole bytes: the optimised encoder must write the same
/// files. Digests are FNV-1a 64 of the whole file (a checksum for byte identity, not security).
@Suite struct PNGGoldenTests {
    /// A reproducible matrix with no QR structure: every module pattern shows up.
    static func noise(size: Int, seed: UInt64) -> QRMatrix {
        var generator = SeededGenerator(state: seed)
        return QRMatrix(version: 0, size: size, modules: (0..<size * size).map { _ in generator.next() & 1 == 1 })
    }

    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let size: Int, seed: UInt64, scale: Int, margin: Int, length: Int, digest: String
        var testDescription: String { "\(size)x\(size) seed \(seed) scale \(scale) margin \(margin)" }
    }

    @Test(arguments: [
        Case(size: 21, seed: 1, scale: 1, margin: 0, length: 152, digest: "97a8912fec6d91c2"),
        Case(size: 21, seed: 2, scale: 8, margin: 4, length: 243, digest: "d40f0a8084741f1a"),
        Case(size: 25, seed: 3, scale: 3, margin: 1, length: 301, digest: "69e225d8d2216a32"),
        Case(size: 29, seed: 4, scale: 5, margin: 2, length: 444, digest: "d233f5df5376acda"),
        Case(size: 33, seed: 5, scale: 7, margin: 3, length: 592, digest: "3989847b92c03801"),
        Case(size: 57, seed: 6, scale: 2, margin: 4, length: 668, digest: "efa6e8c4fa1a1c06"),
        Case(size: 57, seed: 7, scale: 16, margin: 0, length: 1332, digest: "10a3261109ee60f2"),
        Case(size: 177, seed: 8, scale: 1, margin: 4, length: 4392, digest: "e5b100a4938158c9"),
        Case(size: 22, seed: 9, scale: 64, margin: 1, length: 1523, digest: "21ee211a8b4c0e3d"),
    ])
    func noiseMatricesEncodeToTheCapturedBytes(_ golden: Case) throws {
        let png = try PNGEncoder(scale: golden.scale, margin: golden.margin).encode(Self.noise(size: golden.size, seed: golden.seed))
        #expect("\(png.count) \(Self.fnv1a(png))" == "\(golden.length) \(golden.digest)")
    }

    /// The daemon's default image (scale 8, margin 4) of a real check-in URL, byte for byte.
    @Test func theDaemonsDefaultImageIsByteForByteTheCapturedFile() throws {
        let matrix = try QRCodeEncoder().encode(Self.url, level: .medium)
        let png = try PNGEncoder(scale: 8, margin: 4).encode(matrix)
        #expect(hexString(png) == Self.defaultPNG)
    }

    static let url = "HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOP"
    static let defaultPNG = ""
        + "89504e470d0a1a0a0000000d49484452000001480000014801000000001a6f5a9e0000017c494441546881edd54176c34008"
        + "0350ddffd2f4c5480c71db04bcd634cf7586ef2c348420a60b969696969677895ca117deaf80e54e2ada578d777181aa58ae"
        + "24d2247ebd4f782a960f24b367f8e7002c1f4a287aa66ef950ca07b3d7b62a962ba95faedf7ffffdc6597e905a1a05d0ddad"
        + "6839939c035551d8c1d861b99350ea512d8d36722dd7b2fa364beda1db0cb1fc2e034a9f3d4dafaae556aa7923d8c9bc3ded"
        + "6cb99101a885f58fe5b716b71c49651ebd5e3568d3722a4b672347bb44cd07cba9bc182a6f4d04f5f17d86587e95a1ef7fd6"
        + "72a39d82e54656ea6c5cdd4535b9e546063b586d8b38a9a39d8ee54c66b3be376ee1f661964349a06110d9d9b91561b99451"
        + "f3206ff3c523c1f938cba9bc9f02f828c785e54a425785af0d3d63b992153d03ef917356582ee489f8aaf17ae62d2c7752d1"
        + "8239836fa2f5b7e54256ee3c0280bbea63cb07f28a19d1fb59ed6df9442aee844c1d7f256ff951b69d2897cfa323cb918406"
        + "02adda3adab6e5588e96a5a5a5a5655f3f60aa36b69fa64c900000000049454e44ae426082"
}
