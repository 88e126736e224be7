/// One command-line option: its names, whether it takes a value, and its help line.
public struct OptionSpec: Sendable {
    /// The long name without dashes (`output` for `--output`).
    public let long: String
    /// The one-letter name, if any (`o` for `-o`).
    public let short: Character?
    /// The value's placeholder (`FILE`); nil for a flag.
    public let value: String?
    /// One line of help.
    public let help: String
    /// Whether the option may be given more than once (a list, such as several secret files).
    /// A single-value option given twice is a usage error, like a repeated config key.
    public let repeatable: Bool

    /// An option `--long` (and `-short`), taking `value` when it is named.
    public init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }

    /// How a synopsis lists it among the optional options, by its short name when it has one:
    /// `-o FILE`, `--json`.
    public var synopsis: String {
        (short.map { "-\($0)" } ?? "--\(long)") + (value.map { " \($0)" } ?? "")
    }

    /// `-h, --help` is accepted by every command.
    public static let help = OptionSpec("help", short: "h", help: "Show this help and exit.")
}
