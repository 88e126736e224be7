/// The language of the kiosk's words: Korean (the default, like the seed) or English.
public enum KioskLanguage: String, CaseIterable, Sendable {
    case ko, en
}
