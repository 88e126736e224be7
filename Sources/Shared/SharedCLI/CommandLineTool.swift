import SharedDomain
import SharedSystem

/// A program made of subcommands (`qrcheckin`, `qrcheckin-server`): its top-level help, the
/// choice of subcommand, and failures mapped to exit statuses, the same for every program.
public struct CommandLineTool: Sendable {
    /// The program's name (`qrcheckin`).
    public let name: String
    /// The version `--version` prints.
    public let version: String
    /// One line saying what the program is, under the usage line of `--help`.
    public let about: String
    /// Every subcommand, in the order `--help` lists them.
    public let commands: [any Command.Type]
    /// The shell lines that end the top-level `--help`, each with a `# why` comment.
    public let examples: [String]

    /// A program `name` of `commands`.
    public init(name: String, version: String, about: String, commands: [any Command.Type], examples: [String]) {
        self.name = name
        self.version = version
        self.about = about
        self.commands = commands
        self.examples = examples
    }

    /// The subcommand called `word`, if there is one.
    public func command(named word: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == word }
    }

    /// The text `PROGRAM --help` prints: usage, what it is, the commands, options, examples.
    public var helpText: String {
        Self.helpText(name: name, about: about, specs: commands.map { $0.spec }, examples: examples)
    }

    /// The line a usage error without a known command prints.
    public var usageLine: String {
        Self.usageLine(name: name, specs: commands.map { $0.spec })
    }

    /// The top-level `--help` of program `name` with commands `specs`: one layout for both
    /// kinds of program (`AsyncCommandLineTool`).
    package static func helpText(name: String, about: String, specs: [CommandSpec], examples: [String]) -> String {
        let width = (specs.map { $0.name.count }.max() ?? 0) + 2
        let list = specs.map { spec in
            "  " + spec.name + String(repeating: " ", count: width - spec.name.count) + spec.summary
        }.joined(separator: "\n")
        return """
            USAGE: \(name) COMMAND [OPTIONS]

            \(about)

            COMMANDS:
            \(list)

            OPTIONS:
              -h, --help     Show this help and exit.
              --version      Show the version and exit.

            Run '\(name) COMMAND --help' for a command's options.

            EXAMPLES:
            \(examples.map { "  " + $0 }.joined(separator: "\n"))

            """
    }

    /// The usage line of program `name` with commands `specs`.
    package static func usageLine(name: String, specs: [CommandSpec]) -> String {
        "usage: \(name) " + specs.map { $0.name }.joined(separator: "|") + " [OPTIONS]"
    }

    /// Runs the command line (without the program name) and returns the exit status. A write
    /// to standard output that failed on the way (`> /dev/full`) turns success into 74, with one
    /// message: no command reports success having lost its output.
    public func main(_ arguments: [String], context: CommandContext) -> ExitCode {
        let status = dispatch(arguments, context: context)
        if let failure = StandardStream.outputFailure, status != .ioError {
            context.error(failure.description)
            return .ioError
        }
        return status
    }

    private func dispatch(_ arguments: [String], context: CommandContext) -> ExitCode {
        guard let first = arguments.first else {
            context.error("no command given (see \(name) --help)")
            context.usage(usageLine)
            return .usage
        }
        switch first {
        case "-h", "--help", "help":
            guard first == "help", arguments.count > 1 else {
                context.print(helpText)
                return .success
            }
            guard let type = command(named: arguments[1]) else {
                context.error("unknown command \(Quoted(arguments[1])) (see \(name) --help)")
                context.usage(usageLine)
                return .usage
            }
            context.print(type.spec.helpText)
            return .success
        case "--version", "-V":
            context.print("\(name) \(version)\n")
            return .success
        default:
            break
        }
        guard let type = command(named: first) else {
            context.error("unknown command \(Quoted(first)) (see \(name) --help)")
            context.usage(usageLine)
            return .usage
        }
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: type.spec)
            if parsed.has("help") {
                context.print(type.spec.helpText)
                return .success
            }
            let command = try type.init(parsed, context: context)
            return try command.run(context)
        } catch {
            context.error(error.message)
            // A usage error shows what the command accepts, so the next try can be right.
            if error.code == .usage { context.usage(type.spec.usageLine) }
            return error.code
        }
    }

    /// The process's arguments (without the program name), checked for UTF-8
    /// (`ProcessArguments`). Nil, after a message, when one is not UTF-8 (exit 65).
    public func processArguments(_ context: CommandContext) -> [String]? {
        do {
            return try ProcessArguments.current()
        } catch {
            context.error("argument \(error.index) is not valid UTF-8")
            return nil
        }
    }
}
