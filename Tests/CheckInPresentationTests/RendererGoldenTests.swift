import CheckInDomain
import CheckInJSON
import CheckInPresentation
import Testing

/// Text and JSON bytes for fixed inputs, captured from the character-at-a-time renderers
/// (commit e1a6411) before they were rewritten to fill byte buffers: the optimised code must
/// produce the same bytes. Digests are FNV-1a 64 (a checksum for byte identity, not security).
@Suite struct RendererGoldenTests {
    static func noise(size: Int, seed: UInt64) -> QRMatrix {
        var state = seed
        return QRMatrix(version: 0, size: size, modules: (0..<size * size).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 63 == 1
        })
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }

    struct TextCase: Sendable, CustomTestStringConvertible {
        let style: TerminalStyle, size: Int, seed: UInt64, margin: Int, length: Int, digest: String
        var testDescription: String { "\(style) \(size)x\(size) seed \(seed) margin \(margin)" }
    }

    @Test(arguments: TerminalStyle.allCases.flatMap { style in
        [(21, 1, 0), (21, 2, 2), (22, 3, 1), (25, 4, 4), (57, 5, 3)].map { size, seed, margin in
            TextCase(style: style, size: size, seed: UInt64(seed), margin: margin, length: 0, digest: "")
        }
    })
    func textRendersToTheCapturedBytes(_ golden: TextCase) {
        let renderer = TerminalQRRenderer(style: golden.style, margin: golden.margin)
        let matrix = Self.noise(size: golden.size, seed: golden.seed)
        let text = renderer.render(matrix)
        #expect(text == renderer.lines(for: matrix).map { $0 + "\n" }.joined())
        #expect("\(golden.style) \(golden.size) \(golden.seed) \(golden.margin): \(text.utf8.count) \(Self.fnv1a(text))"
            == "\(golden.style) \(golden.size) \(golden.seed) \(golden.margin): \(Self.expectedText["\(golden.style) \(golden.size) \(golden.seed) \(golden.margin)"] ?? "")")
    }

    static let expectedText: [String: String] = [
        "utf8 21 1 0": "594 1d13319c6140e1d3",
        "utf8 21 2 2": "866 abd8a3cd373a383",
        "utf8 22 3 1": "776 543ff37fcb591c61",
        "utf8 25 4 4": "1550 9c3297378efece87",
        "utf8 57 5 3": "5242 2d1436105ba09ebd",
        "utf8Inverted 21 1 0": "570 66668caebba7337",
        "utf8Inverted 21 2 2": "684 1849588ae509cc97",
        "utf8Inverted 22 3 1": "676 1e37475a7253871",
        "utf8Inverted 25 4 4": "1028 ba80f6e12c5e1383",
        "utf8Inverted 57 5 3": "4446 aa1072a3fe5d1a0d",
        "ansi 21 1 0": "735 75274bf96d31a974",
        "ansi 21 2 2": "879 ccf68d858de606ba",
        "ansi 22 3 1": "856 f8f804ca16149a85",
        "ansi 25 4 4": "1283 454a0a956caf2266",
        "ansi 57 5 3": "4926 11445d03fd9cbda9",
        "ascii 21 1 0": "903 2e674e03c4c626af",
        "ascii 21 2 2": "1275 f53853d280914bb1",
        "ascii 22 3 1": "1176 fe7b33cc0276e449",
        "ascii 25 4 4": "2211 518e53a2726ad395",
        "ascii 57 5 3": "8001 a8978261df7af251",
    ]

    /// current.txt's symbol (utf8, margin 2) for a small matrix, character for character.
    @Test func theDaemonsTextSymbolIsTheCapturedText() {
        #expect(TerminalQRRenderer(style: .utf8, margin: 2).render(Self.noise(size: 21, seed: 42)) == Self.utf8Symbol)
        #expect(TerminalQRRenderer(style: .ansi, margin: 1).render(Self.noise(size: 21, seed: 43)) == Self.ansiSymbol)
    }

    static let utf8Symbol = ""
        + "█████████████████████████\n"
        + "██▄██▄ ▀██▀▀▀▄ █ █▄▀▀▄▀██\n"
        + "██ ▄█ ▀██▀ █▀▄██▀▄▀▀█▀▄██\n"
        + "██▄▄▄ ▄  ▄▀ ▀▀▄▀ ▀█ ▄█ ██\n"
        + "██▀▄█  ▄█  ▄▀ ▀▀▀▀█ ▄▄▄██\n"
        + "██▄ ▀██ █▄ ▄ █▄ ▀▀▀▀   ██\n"
        + "██ █▀ ▀   ▀▀██ ▀ ▀▀█▀ ███\n"
        + "██▄▄ ▄█ █▄█▄ ████ ▄▄▀▄ ██\n"
        + "██ ▄ ▄ █▄  ▀ █▀▀█▀▀ ▄ ▄██\n"
        + "██  ▄▀▄█▄▄█ ▀█  ▄▀▀▀▄  ██\n"
        + "███ ▀ ▀█▀▀▄▄ ▄▄▀▀█ ▀▄▀ ██\n"
        + "███▄▄███████▄█▄█▄████▄███\n"
        + "█████████████████████████\n"
    static let ansiSymbol = ""
        + "\u{1B}[0;30;107m ▄▄ ▄ ▄ ▄▄▄ ▄▄▄ ▄▄▄▄▄▄ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m █ ▀▄█▀ ▄▀█▄▄▄█ ▄▀▄█▄█ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m ▄▄▄▀▀ ▀█▀▄ █ ▀██▄▀▀ █ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m   █▀▄▄ ▀ ██  ▀█ ▄█ ██ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m █▄█▄▀█ ▀▄▀▄▀█▀ ██▀▄▀▀ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m   ██▄▄ ▄▄▀█▄▄▀▀▄▀█▀ ▄ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m ▄ █▄█ ▄▄  ███▀█ ▄▀██▄ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m ▄▄▀ ▄ ▀▄█  █ ██▀▄██ ▄ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m ▄▄▀█ ▀ ▀▄▄█  ▄▀   ▀▄▀ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m ▀▄▀█▀▀▄█ ███▀█▀ ▀█ ▄  \u{1B}[0m\n"
        + "\u{1B}[0;30;107m █  ▄▄  ██▄ █▄▀█ █ ▀▀▀ \u{1B}[0m\n"
        + "\u{1B}[0;30;107m                       \u{1B}[0m\n"

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

    static let documentText = "{\"version\":1,\"state\":\"running\",\"venue\":\"DEMO\",\"url\":\"HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOP\",\"safeNumber\":\"12현34규\",\"window\":123456789,\"seq\":null,\"min\":-9223372036854775808,\"max\":9223372036854775807,\"zero\":0,\"neg\":-42,\"yes\":true,\"no\":false,\"escapes\":\"\\\"q\\\" back\\\\slash /\\n\\r\\t\\u0000\\u0001\\u0008\\u000c\\u001f\u{7F} é 😀 \u{2028}\",\"list\":[1,\"\",[],{},null,{\"k\\\"ey\":false}],\"\":\"empty key\"}"

    /// current.json for a running state, as the daemon writes it.
    @Test func stateDocumentSerialisesToTheCapturedText() throws {
        let parsed = try StateDocument(parsing: Array(Self.stateText.utf8))
        #expect(parsed.json.serialized == Self.stateText)
    }

    static let stateText = #"{"version":1,"state":"running","venue":"DEMO","url":"HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/ABC","token":"ABC","safeNumber":"12현34규","window":123,"seq":2,"issuedAt":1845,"expiresAt":1860,"period":15,"shake":"on","refresh":"auto","health":"degraded","reason":"cannot write \"x\"\n","updatedAt":1850,"pid":4242}"#
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
