import SharedQR
import SharedQREncoder
import Testing

@Suite struct QRCodeEncoderTests {
    let encoder = QRCodeEncoder()

    @Test func emptyTextIsRefused() {
        #expect(throws: QREncodingError.empty) { try encoder.encode("", level: .medium) }
    }

    @Test(arguments: ErrorCorrectionLevel.allCases)
    func theLongestByteTextFitsAndOneMoreDoesNot(level: ErrorCorrectionLevel) throws {
        let longest = String(repeating: "a", count: level.maximumBytes)
        #expect(try encoder.encode(longest, level: level).version == 40)
        #expect(throws: QREncodingError.tooLong(bytes: level.maximumBytes + 1, limit: level.maximumBytes, level: level)) {
            try encoder.encode(longest + "a", level: level)
        }
    }

    @Test(arguments: ErrorCorrectionLevel.allCases)
    func nonASCIITextLosesOneByteToTheUTF8Designator(level: ErrorCorrectionLevel) throws {
        // "é" is two bytes; pad with "a" to exactly the limit (maximumBytes - 1).
        let limit = level.maximumBytes - 1
        let longest = "é" + String(repeating: "a", count: limit - 2)
        #expect(try encoder.encode(longest, level: level).version == 40)
        #expect(throws: QREncodingError.tooLong(bytes: limit + 1, limit: limit, level: level)) {
            try encoder.encode(longest + "a", level: level)
        }
    }

    @Test func uppercaseUsesTheCompactAlphanumericMode() throws {
        // 60 alphanumeric characters fit version 3-M; as bytes they would need version 4.
        let upper = String(repeating: "HTTPS://A.B/C", count: 5).prefix(60)
        #expect(try encoder.encode(String(upper), level: .medium).version == 3)
        #expect(try encoder.encode(String(upper).lowercased(), level: .medium).version == 4)
    }

    @Test func aNulByteStillEncodes() throws {
        #expect(try encoder.encode("a\u{0}b", level: .low).size == 21)
    }
}
