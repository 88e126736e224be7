import SharedJSON
import Testing

@Suite struct ByteCursorTests {
    static let edges: [Int64] = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, 113_333_333, 1_700_000_000,
                                 Int64(Int32.max), -1, -9, -10, -100, -1_800_000_000_123, .max, .min]

    @Test(arguments: edges)
    func writesDecimalsAsStringDoes(value: Int64) {
        var out = [UInt8]()
        out.append(capacity: ByteCursor.maximumDecimalLength) { $0.write(value) }
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func writesEveryPieceInOrder() {
        var out = Array("x".utf8)
        out.append(capacity: 64) { cursor in
            cursor.write("{\"a\":")
            cursor.write(-42)
            cursor.write(byte: UInt8(ascii: ","))
            cursor.write(utf8: "현규")
            cursor.write([0x21, 0x7D])
        }
        #expect(String(decoding: out, as: UTF8.self) == "x{\"a\":-42,현규!}")
    }
}
