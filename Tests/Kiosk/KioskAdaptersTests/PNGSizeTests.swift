@testable import KioskAdapters
import SharedQREncoder
import Testing

/// The daemon's PNGs use zlib level 4 with Z_FILTERED at scale 8 because it is cheaper: this
/// holds it to "no larger than zlib's default level", over many URLs as a rotation sees them.
@Suite struct PNGSizeTests {
    /// `count` check-in URLs of four venue-name lengths (QR versions 5 to 7), reproducibly random tokens.
    static func urls(count: Int) -> [String] {
        var generator = SeededGenerator(state: 24)
        let venues = ["DEMO", "HALL-1", "ROOM-A12", "SEOUL-GANGNAM-STATION-EXIT-3"]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        return (0..<count).map { index in
            let token = String((0..<40).map { _ in alphabet[Int(generator.next() % 32)] })
            return "HTTPS://CHECKIN.EXAMPLE.ORG/C/\(venues[index % venues.count])/1\(token)"
        }
    }

    @Test func scaleEightIsNoLargerThanZlibsDefaultOverAHundredURLs() throws {
        let encoder = PNGEncoder(scale: 8, margin: 4)
        var chosen = 0, standard = 0
        for url in Self.urls(count: 100) {
            let matrix = try QRCodeEncoder().encode(url, level: .medium)
            chosen += try encoder.encode(matrix).count
            standard += try encoder.encode(matrix, compression: .zlibDefault).count
        }
        #expect(chosen <= standard, "level 4 + Z_FILTERED: \(chosen) bytes, zlib's default: \(standard)")
    }

    @Test(arguments: [1, 2, 3, 4, 5, 16])
    func otherScalesKeepZlibsDefault(scale: Int) {
        #expect(PNGCompression.forScale(scale) == .zlibDefault)
    }
}
