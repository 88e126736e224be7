import KioskCore
import KioskViews
import SharedJSON
import SharedQR
import Testing

/// Text and JSON bytes for fixed inputs, captured from the character-at-a-time renderers
/// (commit e1a6411) before they were rewritten to fill byte buffers: the optimised code must
/// produce the same bytes. The texts are stored whole in `golden/text/` (a failure shows the
/// lines that differ; `make golden` records them again).
@Suite struct RendererGoldenTests {
    static func noise(size: Int, seed: UInt64) -> QRMatrix {
        var state = seed
        return QRMatrix(version: 0, size: size, modules: (0..<size * size).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 63 == 1
        })
    }

    struct TextCase: Sendable, CustomTestStringConvertible {
        let style: TerminalStyle, size: Int, seed: UInt64, margin: Int
        var testDescription: String { "\(style) \(size)x\(size) seed \(seed) margin \(margin)" }
        /// Its golden file below `golden/`.
        var file: String { "text/\(style)-\(size)-seed\(seed)-margin\(margin).txt" }
    }

    @Test(arguments: TerminalStyle.allCases.flatMap { style in
        [(21, 1, 0), (21, 2, 2), (22, 3, 1), (25, 4, 4), (57, 5, 3)].map { size, seed, margin in
            TextCase(style: style, size: size, seed: UInt64(seed), margin: margin)
        }
    })
    func textRendersToTheCapturedBytes(_ golden: TextCase) {
        let renderer = TerminalQRRenderer(style: golden.style, margin: golden.margin)
        let matrix = Self.noise(size: golden.size, seed: golden.seed)
        let text = renderer.render(matrix)
        #expect(text == renderer.lines(for: matrix).map { $0 + "\n" }.joined())
        GoldenText.expect(text, matches: golden.file)
    }

    /// current.txt's symbol (utf8, margin 2) for a small matrix, character for character, and an
    /// ansi one.
    @Test func theDaemonsTextSymbolIsTheCapturedText() {
        GoldenText.expect(TerminalQRRenderer(style: .utf8, margin: 2).render(Self.noise(size: 21, seed: 42)),
                          matches: "text/utf8-21-seed42-margin2.txt")
        GoldenText.expect(TerminalQRRenderer(style: .ansi, margin: 1).render(Self.noise(size: 21, seed: 43)),
                          matches: "text/ansi-21-seed43-margin1.txt")
    }

    /// Every kind of value and every escape the writer knows.
    static let document = JSONValue.object([
        ("version", .number(1)), ("state", .string("running")), ("venue", .string("DEMO")),
        ("url", .string("HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOP")),
        ("safeNumber", .string("12현34규")), ("window", .number(123_456_789)), ("seq", .null),
        ("min", .number(Int64.min)), ("max", .number(Int64.max)), ("zero", .number(0)), ("neg", .number(-42)),
        ("yes", .bool(true)), ("no", .bool(false)),
        ("escapes", .string("\"q\" back\\slash /\n\r\t\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F} é 😀 \u{2028}")),
        ("list", .array([.number(1), .string(""), .array([]), .object([]), .null, .object([("k\"ey", .bool(false))])])),
        ("", .string("empty key")),
    ])

    @Test func jsonSerialisesToTheCapturedText() {
        #expect(Self.document.serialized == Self.documentText)
    }

    static let documentText = "{\"version\":1,\"state\":\"running\",\"venue\":\"DEMO\",\"url\":\"HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOP\",\"safeNumber\":\"12현34규\",\"window\":123456789,\"seq\":null,\"min\":-9223372036854775808,\"max\":9223372036854775807,\"zero\":0,\"neg\":-42,\"yes\":true,\"no\":false,\"escapes\":\"\\\"q\\\" back\\\\slash /\\n\\r\\t\\u0000\\u0001\\u0008\\u000c\\u001f\\u007f é 😀 \u{2028}\",\"list\":[1,\"\",[],{},null,{\"k\\\"ey\":false}],\"\":\"empty key\"}"

    /// current.json for a running state, as the daemon writes it.
    @Test func stateDocumentSerialisesToTheCapturedText() throws {
        let parsed = try StateDocument(parsing: Array(Self.stateText.utf8))
        #expect(parsed.json.serialized == Self.stateText)
    }

    static let stateText = #"{"version":1,"state":"running","venue":"DEMO","url":"HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABC","token":"ABC","safeNumber":"12현34규","window":123,"seq":2,"issuedAt":1845,"expiresAt":1860,"period":15,"shake":"on","refresh":"auto","modeSource":"console","modeChangedBy":"mina","modeChangedAt":1840,"health":"degraded","reason":"cannot write \"x\"\n","updatedAt":1850,"pid":4242}"#
}

/// The byte forms say exactly what the string forms say.
@Suite struct RendererByteFormTests {
    @Test(arguments: TerminalStyle.allCases)
    func renderBytesIsRenderAsUTF8(style: TerminalStyle) {
        let matrix = RendererGoldenTests.noise(size: 25, seed: 7)
        let renderer = TerminalQRRenderer(style: style, margin: 3)
        #expect(renderer.renderBytes(matrix) == Array(renderer.render(matrix).utf8))
    }

    @Test func serializedBytesIsSerializedAsUTF8() {
        #expect(RendererGoldenTests.document.serializedBytes == Array(RendererGoldenTests.document.serialized.utf8))
    }
}
