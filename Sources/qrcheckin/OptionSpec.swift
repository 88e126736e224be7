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

    init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
    }

    /// `-h, --help` is accepted by every command.
    static let help = OptionSpec("help", short: "h", help: "Show this help and exit.")
}
