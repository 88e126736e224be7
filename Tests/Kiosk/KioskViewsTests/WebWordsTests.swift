import Foundation
import KioskViews
import SharedText
import Testing

/// The web page (web/kiosk.js) carries its own copy of the words `status` and `show` use: a
/// browser cannot import Swift. These tests keep the copy true: every word the page shares with
/// the terminal must be Vocabulary's, letter for letter, in both languages.
@Suite struct WebWordsTests {
    static func page() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("web/kiosk.js"), encoding: .utf8)
    }

    /// `key: "text"` in the page's word table for `language` (its `ko: {…}` or `en: {…}` block),
    /// the first after `after` (`shake: {`, say) when given.
    static func word(_ key: String, _ language: Language, after: String = "", in page: String) throws -> String {
        let block = try #require(page.range(of: "\n    \(language.rawValue): {")).upperBound
        var rest = page[block...]
        if !after.isEmpty { rest = rest[try #require(rest.range(of: after)).upperBound...] }
        let entry = try #require(rest.range(of: " \(key): \""))
        let tail = rest[entry.upperBound...]
        return String(tail[..<(try #require(tail.firstIndex(of: "\"")))])
    }

    @Test(arguments: [Language.ko, .en])
    func theSharedWordsAreVocabularys(language: Language) throws {
        let page = try Self.page()
        let words = Vocabulary(language)
        #expect(try Self.word("safeNumber", language, in: page) == words.safeNumberLabel)
        #expect(try Self.word("paused", language, in: page) == words.pausedTitle)
        #expect(try Self.word("pausedBody", language, in: page) == words.pausedBody)
        #expect(try Self.word("stale", language, in: page) == words.staleTitle)
        #expect(try Self.word("notRunning", language, in: page) == words.notRunningTitle)
        #expect(try Self.word("unreadable", language, in: page) == words.unreadableTitle)
        #expect(try Self.word("warning", language, in: page) == words.warning(""))
        #expect(try Self.word("on", language, after: "shake: {", in: page) == words.shake(.on))
        #expect(try Self.word("off", language, after: "shake: {", in: page) == words.shake(.off))
        #expect(try Self.word("auto", language, after: "refresh: {", in: page) == words.refresh(.auto))
        #expect(try Self.word("paused", language, after: "refresh: {", in: page) == words.refresh(.paused))
        let countdown = words.countdown(7)
        // The page joins label and seconds with one space, as status and show print them.
        #expect(page.contains("countdown: (s) => [\"\(countdown.label) \", s + \"\(countdown.seconds.dropFirst())\"]"))
    }
}
