/// One command-line option: its names, whether it takes a value, and its help line.
struct OptionSpec: Sendable {
    /// The long name without dashes (`output` for `--output`).
    let long: String
    /// The one-letter name, if any (`o` for `-o`).
    let short: Character?
    /// The value's placeholder (`FILE`); nil for a flag.
    let value: String?
    /// One line of help.
    let help: String
    /// Whether the option may be given more than once (a list, such as several secret files).
    /// A single-value option given twice is a usage error, like a repeated config key.
    let repeatable: Bool

    init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }

    /// `-h, --help` is accepted by every command.
    static let help = OptionSpec("help", short: "h", help: "Show this help and exit.")
}
