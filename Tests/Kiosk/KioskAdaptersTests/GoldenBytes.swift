import Foundation
import Testing

/// Golden binary files (`golden/` beside this file), compared byte for byte: a failure says where
/// the first difference is (offset and PNG chunk), shows both sides in hex, and keeps the encoded
/// bytes in a temporary file to look at. With `QRCHECKIN_RECORD_GOLDEN=1` (`make golden`) the
/// bytes are written to the golden file instead: review `git diff` after.
enum GoldenBytes {
    /// This target's golden directory in the source tree.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("golden").path

    /// Records an issue unless `actual` is the content of the golden file `name` (a path below `golden/`).
    static func expect(_ actual: [UInt8], matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name
        if ProcessInfo.processInfo.environment["QRCHECKIN_RECORD_GOLDEN"] == "1" {
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try Data(actual).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                Issue.record("cannot record \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = FileManager.default.contents(atPath: path).map(Array.init) else {
            Issue.record("\(path) is missing: run `make golden`, then review the new file", sourceLocation: sourceLocation)
            return
        }
        guard let difference = difference(expected: expected, actual: actual) else { return }
        let kept = temporaryDirectory("golden") + "/" + (name as NSString).lastPathComponent
        let saved = FileManager.default.createFile(atPath: kept, contents: Data(actual)) ? "the encoded bytes are in \(kept)" : ""
        Issue.record("the encoded bytes differ from \(path)\n\(difference)\n\(saved)\nIf the change is intended: `make golden`, then review `git diff`.",
                     sourceLocation: sourceLocation)
    }

    /// Sizes, the first differing offset with the PNG chunk it falls in, and 16 bytes of each
    /// side from the start of that offset's row; nil when the bytes are equal.
    static func difference(expected: [UInt8], actual: [UInt8]) -> String? {
        guard expected != actual else { return nil }
        let offset = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, actual.count)
        let row = offset - offset % 16
        func dump(_ bytes: [UInt8]) -> String {
            bytes[min(row, bytes.count)..<min(row + 16, bytes.count)].map { String(format: "%02x", $0) }.joined(separator: " ")
        }
        return ["expected \(expected.count) bytes, encoded \(actual.count); first difference at byte \(offset)"
                    + (chunk(containing: offset, in: expected).map { " (in the \($0) chunk)" } ?? ""),
                String(format: "  expected %06x: ", row) + dump(expected),
                String(format: "  encoded  %06x: ", row) + dump(actual)].joined(separator: "\n")
    }

    /// The type of the PNG chunk holding byte `offset` ("signature" before the first chunk).
    static func chunk(containing offset: Int, in png: [UInt8]) -> String? {
        guard offset >= 8 else { return "signature" }
        var start = 8
        while start + 8 <= png.count {
            let length = png[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = start + 12 + length
            if offset < end { return String(decoding: png[start + 4..<start + 8], as: UTF8.self) }
            start = end
        }
        return nil
    }
}
