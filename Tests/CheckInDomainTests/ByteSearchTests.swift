@testable import CheckInDomain
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
}
