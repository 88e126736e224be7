import Foundation

/// Bytes from hex text (test vectors are printed that way); traps on bad input.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Hex text of bytes.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// A reproducible random source for test data (SplitMix64); never used for keys.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The one directory this test process makes its temporaries in, removed when the process exits,
/// so a test run leaves nothing behind in /tmp however its tests end.
let testRoot: String = {
    let path = NSTemporaryDirectory() + "qrcheckin-tests-\(getpid())"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: testRoot) }
    return path
}()

/// A fresh empty directory under this test process's `testRoot`.
func temporaryDirectory(_ name: String) -> String {
    let path = testRoot + "/\(name)-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
