import SharedSystem

/// The process surroundings a command may read: environment, terminal, standard streams.
/// Commands get it passed in instead of reaching for globals, so tests can build one.
public struct CommandContext: Sendable {
    /// The program's name, which starts every diagnostic (`qrcheckin: ...`).
    public var program: String
    /// Environment variables.
    public var environment: [String: String]
    /// Whether standard output is a terminal.
    public var standardOutputIsTerminal: Bool
    /// Whether standard input is a terminal: someone there can answer `ask`.
    public var standardInputIsTerminal: Bool

    /// A context made of these parts (tests build their own).
    public init(program: String, environment: [String: String], standardOutputIsTerminal: Bool, standardInputIsTerminal: Bool = false) {
        self.program = program
        self.environment = environment
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.standardInputIsTerminal = standardInputIsTerminal
    }

    /// The real process context of `program`.
    public static func current(program: String) -> CommandContext {
        CommandContext(program: program, environment: ProcessEnvironment.current(),
                       standardOutputIsTerminal: StandardStream.output.isTerminal, standardInputIsTerminal: StandardInput.isTerminal)
    }

    /// Asks `question` on standard error (the answer is typed on its line) and returns the line
    /// read from standard input, nil at its end. Standard error, so that the question is seen
    /// when standard output goes to a file.
    public func ask(_ question: String) -> String? {
        StandardStream.error.write(question)
        return StandardInput.readLine()
    }

    /// Whether colour output is wanted: a terminal and no NO_COLOR (https://no-color.org).
    public var wantsColor: Bool {
        standardOutputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes `text` to standard output. A failure is remembered and turns the exit status
    /// into 74 when the command ends (`Program.main`); use `output` to stop at once instead.
    public func print(_ text: String) {
        StandardStream.output.write(text)
    }

    /// Writes `text` to standard output or throws exit 74 naming the error (`> /dev/full`).
    public func output(_ text: String) throws(CommandError) {
        do {
            try StandardStream.output.send(Array(text.utf8))
        } catch {
            throw CommandError(.ioError, error.description)
        }
    }

    /// Writes raw bytes to standard output.
    public func write(_ bytes: [UInt8]) {
        StandardStream.output.write(bytes)
    }

    /// Where diagnostics go: standard error, with journald's priority prefixes when it is the
    /// journal (`Logger`); lines elsewhere start with the program's name.
    public var logger: Logger { Logger(environment: environment, program: program) }

    /// Reports a command's failure: one line on standard error, prefixed with the program name
    /// (journald priority 3 under systemd, so `journalctl -p err` shows it).
    public func error(_ message: String) {
        logger.error(message)
    }

    /// Shows the usage line that follows a usage error (at the error's priority).
    public func usage(_ line: String) {
        logger.continuation(.error, line)
    }
}
