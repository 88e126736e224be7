import SharedQR
import SharedText
/// How the kiosk draws: QR style, language, colour, and whether the terminal can show Hangul.
public struct KioskOptions: Equatable, Sendable {
    /// The QR drawing style (`--mode`).
    public var style: TerminalStyle
    /// The language of the words (`--lang`).
    public var language: Language
    /// Whether colour escape sequences may be used for text (the red seconds); NO_COLOR says no.
    public var color: Bool
    /// Whether the terminal can show Hangul; if not, safe-number syllables are romanized.
    public var hangul: Bool
    /// The output directory the kiosk follows, named in the "not running" message.
    public var outputDirectory: String

    /// Creates options.
    public init(style: TerminalStyle, language: Language, color: Bool, hangul: Bool, outputDirectory: String) {
        self.style = style
        self.language = language
        self.color = color
        self.hangul = hangul
        self.outputDirectory = outputDirectory
    }

    /// Fills what the command line left open from the environment.
    ///
    /// - A locale that is not UTF-8 (LC_ALL, else LC_CTYPE, else LANG, as POSIX orders them)
    ///   gets `ascii` and English: half blocks and Hangul would be mojibake.
    /// - `TERM=linux` (the Linux console) has half blocks but no Hangul font (512 glyphs):
    ///   English words, romanized syllables.
    /// - NO_COLOR (https://no-color.org) picks `utf8` over `ansi` and draws the seconds bold, not red.
    /// - The language follows the locale like `status` (`Language.fromLocale`), except that a
    ///   terminal without Hangul gets English.
    public static func resolve(mode: TerminalStyle?, language: Language?, environment: [String: String],
                               outputDirectory: String) -> KioskOptions {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let lowered = locale.lowercased()
        let utf8 = lowered.contains("utf-8") || lowered.contains("utf8")
        let color = (environment["NO_COLOR"] ?? "").isEmpty
        let hangul = utf8 && environment["TERM"] != "linux"
        let style = mode ?? (!utf8 ? .ascii : color ? .ansi : .utf8)
        return KioskOptions(style: style, language: language ?? (hangul ? Language.fromLocale(environment) : .en), color: color,
                            hangul: hangul, outputDirectory: outputDirectory)
    }
}
