import CheckInData
import CheckInDomain
import Testing

/// The PNG bytes for fixed inputs, captured from the one-module-at-a-time encoder (commit e1a6411)
/// before `packedRows` was rewritten to fill whole bytes: the optimised encoder must write the same
/// files. The scale-8 images were captured again when that scale moved to zlib level 4 with
/// Z_FILTERED (issue 24: 243 → 239 and 437 → 426 bytes; bench/rotation_reference.c changed with
/// them). Digests are FNV-1a 64 of the whole file (a checksum for byte identity, not security).
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
        Case(size: 21, seed: 2, scale: 8, margin: 4, length: 239, digest: "8c7a4d036868ca23"),
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
        + "89504e470d0a1a0a0000000d49484452000001480000014801000000001a6f5a9e00000171494441546843edd1416e03310c"
        + "43d17fff4bb30b5233d3a001e41445375406b62c3d79e1a06df05a781b959ba8dc44e5262a37f1671287e6737ead1855aea5"
        + "b2824826e0d1a93c92d8188b8177a7f2036918e2b9cadf486c074fadf2548e97442624ee4ee59174e8875f3a95277202a539"
        + "d94bf3dba1f2ad4421539c146717aadc499f30c7bbaba45d7926dd486130cc5a792285041276b37b73abf24822d2f1736718"
        + "5f50792a05c8bdd9d236ae3c9120e4caddbf7a4cb1722b2f2dfceaf7e2a1ca132910a498148525af3c91cad13005c0fb98ca"
        + "9d84bcbabc4f96be69e55a4a04219c5eafce98cab504bcba99e161f765954b1940bac27f03d2cc551e4809f148fdc9f3dcd7"
        + "556e658c17bf7f0cc2a6722d9dc3cc318599a93c92132e23e48df0ca3389c3e65ae50a3e571e4865f54070d2c0ca13095c6d"
        + "7c74d5bcf22329908d3ca7b9a0f2239914c3bcba61e5897c547439cff344952be910c1206473972bd77215959ba8dc44e526"
        + "2a37f1bff20b60aa36b683395f070000000049454e44ae426082"
}
