/// One part of a synopsis after the optional options: positional words, or options a command
/// needs. Options are named by their long name and spelled from their `OptionSpec`, so the
/// synopsis says what the parser takes.
public indirect enum Operand: Sendable, Equatable {
    /// Positional words as the command reads them: `[TEXT]`, `URL`, `get | shake on|off|toggle`.
    case words(String)
    /// An option the command needs, by long name: `--venue VENUE`.
    case option(String)
    /// Exactly one of these, in parentheses: `(--device ID | --phone NUMBER)`.
    case oneOf([Operand])
    /// All of these or none, in brackets: `[--venue VENUE --from FILE]`.
    case together([Operand])

    /// The long names of the options this names, in order.
    public var optionNames: [String] {
        switch self {
        case .words: []
        case .option(let long): [long]
        case .oneOf(let parts), .together(let parts): parts.flatMap(\.optionNames)
        }
    }

    /// Whether this names positional words.
    public var hasWords: Bool {
        switch self {
        case .words: true
        case .option: false
        case .oneOf(let parts), .together(let parts): parts.contains(where: \.hasWords)
        }
    }

    /// How the synopsis spells this, its options by their long names (`--venue VENUE`).
    public func synopsis(_ options: [OptionSpec]) -> String {
        switch self {
        case .words(let text):
            return text
        case .option(let long):
            let option = options.first { $0.long == long }
            return "--" + long + (option?.value.map { " " + $0 } ?? "")
        case .oneOf(let parts):
            return "(" + parts.map { $0.synopsis(options) }.joined(separator: " | ") + ")"
        case .together(let parts):
            return "[" + parts.map { $0.synopsis(options) }.joined(separator: " ") + "]"
        }
    }
}
