@testable import SharedDomain
import Testing

/// The verifier's word-at-a-time searches against plain byte loops, at every length and position.
@Suite struct ByteSearchTests {
    static func buffers() -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        var buffers: [[UInt8]] = [[], Array("HTTPS://CHECKIN.EXAMPLE.ORG/C/HALL-1/1AAAAAAAGYFKFIAAAAAADQB6AJBN3BYGLJ7INISAP?x=/#y".utf8)]
        for length in 0...40 {
            for _ in 0..<20 {
                // Mostly letters, now and then one of the searched bytes or a high byte.
                buffers.append((0..<length).map { _ in
                    switch generator.next() % 16 {
                    case 0: UInt8(ascii: "/")
                    case 1: UInt8(ascii: "?")
                    case 2: UInt8(ascii: "#")
                    case 3: 0xBF
                    case 4: [0x00, 0x09, 0x1F, 0x20, 0x7F, 0x80, 0xFF, 0x7E][Int(generator.next() % 8)]
                    default: UInt8(ascii: "A") + UInt8(generator.next() % 26)
                    }
                })
            }
        }
        return buffers
    }

    @Test func findsWhatAByteLoopFinds() {
        for bytes in Self.buffers() {
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteSearch.first(UInt8(ascii: "?"), or: UInt8(ascii: "#"), in: buffer)
                    == bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
                #expect(ByteSearch.last(UInt8(ascii: "/"), in: buffer) == bytes.lastIndex(of: UInt8(ascii: "/")))
            }
        }
    }

    @Test func scansWhatAByteLoopSees() {
        for bytes in Self.buffers() {
            var expected = ByteSearch.Scan()
            expected.hasControl = bytes.contains { $0 < 0x20 || $0 == 0x7F }
            expected.hasSlash = bytes.contains(UInt8(ascii: "/"))
            expected.hasNonASCII = bytes.contains { $0 >= 0x80 }
            expected.hasQueryOrFragment = bytes.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            bytes.withUnsafeBufferPointer { #expect(ByteSearch.scan($0) == expected, "\(bytes)") }
        }
        // Every byte value alone, at each place in a word, among bytes that borrow (0x00, 0x80).
        for value in 0...255 {
            for place in 0..<8 {
                for filler: UInt8 in [UInt8(ascii: "A"), 0x80, 0xFF] {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[place] = UInt8(value)
                    bytes.withUnsafeBufferPointer { buffer in
                        let scan = ByteSearch.scan(buffer)
                        #expect(scan.hasControl == (value < 0x20 || value == 0x7F))
                        #expect(scan.hasSlash == (value == 0x2F))
                        #expect(scan.hasQueryOrFragment == (value == 0x3F || value == 0x23))
                    }
                }
            }
        }
    }
}
