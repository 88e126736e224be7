/// What a command accepts and how `--help` describes it.
struct CommandSpec: Sendable {
    /// The subcommand word (`encode`).
    let name: String
    /// One line for the command list.
    let summary: String
    /// The synopsis after `qrcheckin `.
    let usage: String
    /// Accepted options (`--help` is added automatically).
    let options: [OptionSpec]
    /// How many positional arguments are allowed.
    let positionals: ClosedRange<Int>
    /// Paragraphs after the option list: details, exit status, examples.
    let discussion: String

    init(name: String, summary: String, usage: String, options: [OptionSpec] = [],
         positionals: ClosedRange<Int> = 0...0, discussion: String = "") {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + [.help]
        self.positionals = positionals
        self.discussion = discussion
    }

    /// The text `--help` prints.
    var helpText: String {
        var text = "USAGE: qrcheckin \(usage)\n\n\(summary)\n\nOPTIONS:\n"
        let labels = options.map { option in
            let short = option.short.map { "-\($0), " } ?? "    "
            return "  \(short)--\(option.long)" + (option.value.map { " \($0)" } ?? "")
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, options) {
            text += label + String(repeating: " ", count: width - label.count) + option.help + "\n"
        }
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        return text
    }
}
