import KioskViews
import SharedText
import Testing

/// The kiosk's name for the safe number and its countdown are `SharedWords`', the words the
/// server's pages take too (ServerSiteTests checks its half): a visitor reads 안심번호 on the
/// kiosk and on the page it leads to.
@Suite struct VocabularySharedWordsTests {
    @Test(arguments: [Language.ko, .en])
    func theSafeNumberAndTheCountdownAreTheSharedWords(language: Language) {
        let words = Vocabulary(language), shared = SharedWords(language)
        #expect(words.safeNumberLabel == shared.safeNumberLabel)
        #expect(words.countdown(7) == shared.countdown(7))
    }
}
