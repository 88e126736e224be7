import CheckInData
import CheckInDomain
import Glibc

/// The top level: picks the subcommand, runs it, maps failures to exit statuses.
enum Program {
    static let version = "0.1.0"

    static var helpText: String {
        let width = (CommandRegistry.commands.map { $0.spec.name.count }.max() ?? 0) + 2
        let list = CommandRegistry.commands.map { type in
            "  " + type.spec.name + String(repeating: " ", count: width - type.spec.name.count) + type.spec.summary
        }.joined(separator: "\n")
        return """
            USAGE: qrcheckin COMMAND [OPTIONS]

            Rotating, signed QR check-in codes for venues: a daemon and its tools.

            COMMANDS:
            \(list)

            OPTIONS:
              -h, --help     Show this help and exit.
              --version      Show the version and exit.

            Run 'qrcheckin COMMAND --help' for a command's options.

            EXAMPLES:
              qrcheckin run                      # the daemon on embedded defaults
              qrcheckin status --watch           # its live countdown
              qrcheckin encode -o - HELLO > hello.png

            """
    }

    /// The line a usage error without a known command prints.
    static var usageLine: String {
        "usage: qrcheckin " + CommandRegistry.commands.map { $0.spec.name }.joined(separator: "|") + " [OPTIONS]"
    }

    /// Runs the command line (without the program name) and returns the exit status. A write
    /// to standard output that failed on the way (`> /dev/full`) turns success into 74, with one
    /// message: no command reports success having lost its output.
    static func main(_ arguments: [String], context: CommandContext) -> ExitCode {
        let status = dispatch(arguments, context: context)
        if let failure = StandardStream.outputFailure, status != .ioError {
            context.error(failure.description)
            return .ioError
        }
        return status
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) -> ExitCode {
        guard let first = arguments.first else {
            context.error("no command given (see qrcheckin --help)")
            context.usage(usageLine)
            return .usage
        }
        switch first {
        case "-h", "--help", "help":
            guard first == "help", arguments.count > 1 else {
                context.print(helpText)
                return .success
            }
            guard let type = CommandRegistry.command(named: arguments[1]) else {
                context.error("unknown command \(Quoted(arguments[1])) (see qrcheckin --help)")
                context.usage(usageLine)
                return .usage
            }
            context.print(type.spec.helpText)
            return .success
        case "--version", "-V":
            context.print("qrcheckin \(version)\n")
            return .success
        default:
            break
        }
        guard let type = CommandRegistry.command(named: first) else {
            context.error("unknown command \(Quoted(first)) (see qrcheckin --help)")
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
}
