import SharedQR
import Testing

@Suite struct QRMatrixTests {
    @Test func outsideTheSymbolIsTheLightQuietZone() {
        let matrix = QRMatrix(version: 1, size: 2, modules: [true, true, true, true])
        #expect(matrix[0, 0] && matrix[1, 1])
        #expect(!matrix[-1, 0] && !matrix[0, -1] && !matrix[2, 0] && !matrix[0, 2])
    }
}
