import SharedQR
import Testing

/// Reads rendered terminal text back into modules, the way a person's eyes (or a camera) would.
enum TerminalReader {
    static func modules(_ lines: [String], style: TerminalStyle) -> [[Bool]] {
        if style == .ascii {
            return lines.map { line in
                let characters = Array(line)
                return stride(from: 0, to: characters.count, by: 2).map { characters[$0] == "#" }
            }
        }
        var rows = [[Bool]]()
        for line in lines {
            let plain = stripEscapes(line)
            var upper = [Bool](), lower = [Bool]()
            for glyph in plain {
                var (top, bottom) = switch glyph {
                case "█": (true, true)
                case "▀": (true, false)
                case "▄": (false, true)
                default: (false, false)
                }
                if style == .utf8 { (top, bottom) = (!top, !bottom) }
                upper.append(top)
                lower.append(bottom)
            }
            rows += [upper, lower]
        }
        return rows
    }

    static func stripEscapes(_ line: String) -> String {
        var result = "", inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true } else if inEscape { if character.isLetter { inEscape = false } } else { result.append(character) }
        }
        return result
    }
}

@Suite struct TerminalQRRendererTests {
    /// A deterministic, irregular test pattern (odd size exercises the last half row).
    static let matrix: QRMatrix = {
        let size = 25
        let modules = (0..<size * size).map { ($0 * 7919 + $0 / 3) % 5 < 2 }
        return QRMatrix(version: 2, size: size, modules: modules)
    }()

    @Test(arguments: TerminalStyle.allCases, [1, 2, 4])
    func everyStyleReadsBackToTheSameModules(style: TerminalStyle, margin: Int) {
        let matrix = Self.matrix
        let lines = TerminalQRRenderer(style: style, margin: margin).lines(for: matrix)
        let read = TerminalReader.modules(lines, style: style)
        let span = matrix.size + 2 * margin
        #expect(lines.count == style.rows(forModules: span))
        for row in 0..<span {
            for column in 0..<span {
                #expect(read[row][column] == matrix[row - margin, column - margin], "\(style) at \(row),\(column)")
            }
        }
        // The quiet zone is there: every margin row and column is light.
        #expect(read[0].prefix(span).allSatisfy { !$0 })
        #expect(read.prefix(span).allSatisfy { !$0[0] })
    }

    @Test func ansiIsExplicitBlackOnWhiteAndResetsEachLine() {
        let lines = TerminalQRRenderer(style: .ansi, margin: 4).lines(for: Self.matrix)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[0;30;107m") && $0.hasSuffix("\u{1B}[0m") })
    }
}
