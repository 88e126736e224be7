import SharedQR
import Testing

@Suite struct ErrorCorrectionLevelTests {
    @Test func parsesLettersInEitherCase() {
        #expect(ErrorCorrectionLevel(letter: "m") == .medium)
        #expect(ErrorCorrectionLevel(letter: "H") == .high)
        #expect(ErrorCorrectionLevel(letter: "X") == nil)
        #expect(ErrorCorrectionLevel(letter: "") == nil)
    }

    @Test func byteCapacityShrinksAsCorrectionGrows() {
        #expect(ErrorCorrectionLevel.allCases.map(\.maximumBytes) == [2953, 2331, 1663, 1273])
    }

    @Test func tooLongNamesTheByteCountAndTheLimit() {
        let message = QREncodingError.tooLong(bytes: 2400, limit: 2331, level: .medium).description
        #expect(message.contains("2400 bytes"))
        #expect(message.contains("at most 2331 bytes"))
    }
}
