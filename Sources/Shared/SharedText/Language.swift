/// The language of every human word qrcheckin shows: Korean or English. One enum for `status`,
/// the kiosk and messages, chosen by `--lang` or else by the locale.
public enum Language: String, CaseIterable, Sendable {
    case ko, en

    /// The locale's language, POSIX order: the first non-empty of `LC_ALL`, `LC_MESSAGES`,
    /// `LANG`; one starting with `ko` is Korean, anything else (or none) English.
    public static func fromLocale(_ environment: [String: String]) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        return locale.hasPrefix("ko") ? .ko : .en
    }
}
