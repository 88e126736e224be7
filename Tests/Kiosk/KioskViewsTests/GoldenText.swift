import Foundation
import Testing

/// Golden text files (`golden/` beside this file), compared whole: a failure names the lines that
/// differ, with escape sequences and line ends made visible. With `QRCHECKIN_RECORD_GOLDEN=1`
/// (`make golden`) the rendered text is written to the file instead: review `git diff` after.
enum GoldenText {
    /// This target's golden directory in the source tree.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("golden").path

    /// Records an issue unless `actual` is the text of the golden file `name` (a path below `golden/`).
    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name
        if ProcessInfo.processInfo.environment["QRCHECKIN_RECORD_GOLDEN"] == "1" {
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try actual.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                Issue.record("cannot record \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("\(path) is missing: run `make golden`, then review the new file", sourceLocation: sourceLocation)
            return
        }
        if let difference = difference(expected: expected, actual: actual) {
            Issue.record("the rendered text differs from \(path)\n\(difference)\nIf the change is intended: `make golden`, then review `git diff`.",
                         sourceLocation: sourceLocation)
        }
    }

    /// The first `limit` lines that differ, expected (-) above rendered (+); nil when the texts are equal.
    static func difference(expected: String, actual: String, limit: Int = 6) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var report = ["expected \(expected.utf8.count) bytes in \(old.count) lines, rendered \(actual.utf8.count) in \(new.count)"]
        var shown = 0
        for index in 0..<max(old.count, new.count) where shown < limit {
            let was = index < old.count ? visible(old[index]) : "(no line)"
            let now = index < new.count ? visible(new[index]) : "(no line)"
            guard was != now else { continue }
            report += ["line \(index + 1):", "  - \(was)", "  + \(now)"]
            shown += 1
        }
        return report.joined(separator: "\n")
    }

    /// A line between bars (trailing spaces count), ESC as ␛ and CR as ␍.
    static func visible(_ line: Substring) -> String {
        "|" + String(line).replacing("\u{1B}", with: "␛").replacing("\r", with: "␍") + "|"
    }
}
