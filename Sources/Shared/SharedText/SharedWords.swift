/// The words both halves say about the same things, in one language: the kiosk's screens
/// (`Vocabulary`), `status`, and the server's pages (`ServerWords`) take them from here, so the
/// safe number is 안심번호 and the countdown reads the same everywhere.
public struct SharedWords: Sendable {
    /// The language of the words.
    public let language: Language

    /// Words in `language`.
    public init(_ language: Language) {
        self.language = language
    }

    private var ko: Bool { language == .ko }

    /// The safe number's name: 안심번호 / Safe number. It is the venue's rotating number, not
    /// the visitor's own 개인안심번호 (personal safe number) that Korea's check-in apps showed:
    /// "개인" would tell a visitor to write it as theirs (issue 34).
    public var safeNumberLabel: String { ko ? "안심번호" : "Safe number" }

    /// The countdown as a label and the red part (the seconds): `남은 시간` `7초`.
    public func countdown(_ seconds: Int64) -> (label: String, seconds: String) {
        ko ? ("남은 시간", "\(seconds)초") : ("Time left", "\(seconds)s")
    }
}
