/// What a command accepts and how `--help` describes it.
public struct CommandSpec: Sendable {
    /// The program the command belongs to (`qrcheckin`), for the synopsis and messages.
    public let program: String
    /// The subcommand word (`encode`).
    public let name: String
    /// One line for the command list.
    public let summary: String
    /// What the synopsis shows after the optional options: the positional arguments and the
    /// options the command needs (`--venue VENUE`, `(--device ID | --phone NUMBER)`).
    public let operands: [Operand]
    /// Accepted options (`--help` is added automatically).
    public let options: [OptionSpec]
    /// How many positional arguments are allowed.
    public let positionals: ClosedRange<Int>
    /// Paragraphs after the option list: details, exit status.
    public let discussion: String
    /// The 2-4 shell lines that end `--help`, each with a `# why` comment.
    public let examples: [String]

    /// A command of `program`; `--help` is added to `options`. Every option `operands` names must
    /// be one of `options`, and positional words are named exactly when positionals are allowed:
    /// the synopsis is made from these, so it cannot name what the parser does not take.
    public init(program: String, name: String, summary: String, operands: [Operand] = [], options: [OptionSpec] = [],
                positionals: ClosedRange<Int> = 0...0, discussion: String = "", examples: [String] = []) {
        self.program = program
        self.name = name
        self.summary = summary
        self.operands = operands
        self.options = options + [.help]
        self.positionals = positionals
        self.discussion = discussion
        self.examples = examples
        for long in operands.flatMap(\.optionNames) {
            precondition(options.contains { $0.long == long }, "\(program) \(name): the synopsis names --\(long), which is not an option")
        }
        precondition(operands.contains(where: \.hasWords) == (positionals.upperBound > 0),
                     "\(program) \(name): the synopsis must name the positional arguments exactly when there may be some")
    }

    /// One synopsis entry per option that `operands` does not name, in `--help` order:
    /// `[-o FILE]`, `[--json]`.
    public var optionSynopses: [String] {
        let named = Set(operands.flatMap(\.optionNames))
        return options.filter { $0.long != "help" && !named.contains($0.long) }.map { "[" + $0.synopsis + "]" }
    }

    /// The operands as the synopsis spells them: `--venue VENUE`, `[TEXT]`.
    public var operandSynopses: [String] {
        operands.map { $0.synopsis(options) }
    }

    /// `PROGRAM NAME` with every option and the operands, wrapped at 80 columns.
    public var synopsis: String {
        let lead = "\(program) \(name)"
        var lines = [lead]
        let indent = String(repeating: " ", count: lead.count)
        // The operands stay on one line: `get | shake on|off|toggle` must not break mid-choice.
        let words = optionSynopses + (operands.isEmpty ? [] : [operandSynopses.joined(separator: " ")])
        for word in words {
            if lines[lines.count - 1].count + 1 + word.count > 80 && lines[lines.count - 1] != lead {
                lines.append(indent)
            }
            lines[lines.count - 1] += " " + word
        }
        return lines.joined(separator: "\n")
    }

    /// The synopsis on one line, for the line a usage error prints.
    public var usageLine: String {
        "usage: \(program) \(name) " + (optionSynopses + operandSynopses).joined(separator: " ")
    }

    /// The text `--help` prints: synopsis, summary, options, discussion, then 2-4 examples.
    public var helpText: String {
        var text = "USAGE: \(synopsis)\n\n\(summary)\n\nOPTIONS:\n"
        let labels = options.map { option in
            let short = option.short.map { "-\($0), " } ?? "    "
            return "  \(short)--\(option.long)" + (option.value.map { " \($0)" } ?? "")
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, options) {
            text += label + String(repeating: " ", count: width - label.count) + option.help + "\n"
        }
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        if !examples.isEmpty {
            text += "\nEXAMPLES:\n" + examples.map { "  " + $0 + "\n" }.joined()
        }
        return text
    }
}
