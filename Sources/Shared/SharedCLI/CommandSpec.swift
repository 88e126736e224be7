/// What a command accepts and how `--help` describes it.
public struct CommandSpec: Sendable {
    /// The program the command belongs to (`qrcheckin`), for the synopsis and messages.
    public let program: String
    /// The subcommand word (`encode`).
    public let name: String
    /// One line for the command list.
    public let summary: String
    /// The synopsis as written by the command (`encode [-o FILE] [TEXT]`). Only its operands are
    /// used: the options in `synopsis` are generated from `options`, so none can be left out.
    public let usage: String
    /// Accepted options (`--help` is added automatically).
    public let options: [OptionSpec]
    /// How many positional arguments are allowed.
    public let positionals: ClosedRange<Int>
    /// Paragraphs after the option list: details, exit status.
    public let discussion: String
    /// The 2-4 shell lines that end `--help`, each with a `# why` comment.
    public let examples: [String]

    /// A command of `program`; `--help` is added to `options`.
    public init(program: String, name: String, summary: String, usage: String, options: [OptionSpec] = [],
                positionals: ClosedRange<Int> = 0...0, discussion: String = "", examples: [String] = []) {
        self.program = program
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + [.help]
        self.positionals = positionals
        self.discussion = discussion
        self.examples = examples
    }

    /// What follows the options in the synopsis: `usage` without its name and without its
    /// bracketed option groups (`[--json]`, `[OPTIONS]`), e.g. `[TEXT]` or `get | shake on|off`.
    public var operands: [String] {
        var words = CommandSpec.groups(usage)
        if words.first == name { words.removeFirst() }
        return words.filter { word in
            !(word.hasPrefix("[-") || word == "[OPTIONS]")
        }
    }

    /// One synopsis entry per option, in `--help` order: `[-o FILE]`, `[--json]`. Options that
    /// the operands already spell (`--safe-number NUMBER` in `verify`) are not repeated.
    public var optionSynopses: [String] {
        let operandText = operands.joined(separator: " ")
        return options.filter { $0.long != "help" && !operandText.contains("--\($0.long)") }.map { option in
            let name = option.short.map { "-\($0)" } ?? "--\(option.long)"
            return "[" + name + (option.value.map { " \($0)" } ?? "") + "]"
        }
    }

    /// `PROGRAM NAME` with every option and the operands, wrapped at 80 columns.
    public var synopsis: String {
        let lead = "\(program) \(name)"
        var lines = [lead]
        let indent = String(repeating: " ", count: lead.count)
        // The operands stay on one line: `get | shake on|off|toggle` must not break mid-choice.
        let words = optionSynopses + (operands.isEmpty ? [] : [operands.joined(separator: " ")])
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
        "usage: \(program) \(name) " + (optionSynopses + operands).joined(separator: " ")
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

    /// Splits a synopsis into words, keeping bracketed and parenthesised groups whole.
    public static func groups(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == "[" || character == "(" { depth += 1 }
            if character == "]" || character == ")" { depth -= 1 }
            if character == " " && depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
