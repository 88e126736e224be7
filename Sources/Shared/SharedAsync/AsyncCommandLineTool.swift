import SharedCLI
import SharedDomain
import SharedSystem

/// A program made of `AsyncCommand`s (`qrcheckin-server`): the same top-level help, choice of
/// subcommand, usage errors and exit statuses as `CommandLineTool`, whose texts it shares;
/// the command's `run` is awaited. The kiosk keeps `CommandLineTool`: its commands are
/// synchronous and its binary does not carry this.
public struct AsyncCommandLineTool: Sendable {
    /// The program's name (`qrcheckin-server`).
    public let name: String
    /// The version `--version` prints.
    public let version: String
    /// One line saying what the program is, under the usage line of `--help`.
    public let about: String
    /// Every subcommand, in the order `--help` lists them.
    public let commands: [any AsyncCommand.Type]
    /// The shell lines that end the top-level `--help`, each with a `# why` comment.
    public let examples: [String]

    /// A program `name` of `commands`.
    public init(name: String, version: String, about: String, commands: [any AsyncCommand.Type], examples: [String]) {
        self.name = name
        self.version = version
        self.about = about
        self.commands = commands
        self.examples = examples
    }

    /// The subcommand called `word`, if there is one.
    public func command(named word: String) -> (any AsyncCommand.Type)? {
        commands.first { $0.spec.name == word }
    }

    /// The text `PROGRAM --help` prints (`CommandLineTool`'s layout).
    public var helpText: String {
        CommandLineTool.helpText(name: name, about: about, specs: commands.map { $0.spec }, examples: examples)
    }

    /// The line a usage error without a known command prints.
    public var usageLine: String {
        CommandLineTool.usageLine(name: name, specs: commands.map { $0.spec })
    }

    /// For a synchronous `main.swift`: parses the command line and validates the command on the
    /// calling thread (the main thread), blocks the command's `signals` there, then runs it as a
    /// task while this thread waits (`AsyncMain`, which says why not an async main). Returns the
    /// exit status, as `CommandLineTool.main` does.
    public func main(_ arguments: [String], context: CommandContext) -> ExitCode {
        let status: ExitCode
        switch prepare(arguments, context: context) {
        case .exit(let code):
            status = code
        case .run(let command):
            if !type(of: command).serves { CommandExecutor.shareOneHeap() }
            do {
                try UnixSignal.block(type(of: command).signals)
            } catch {
                context.error(error.description)
                return .software
            }
            status = AsyncMain.wait { await Self.run(command, context: context) }
        }
        return Self.checkingOutput(status, context: context)
    }

    /// The same from async code (tests; a caller that blocked the signals itself).
    public func run(_ arguments: [String], context: CommandContext) async -> ExitCode {
        let status: ExitCode
        switch prepare(arguments, context: context) {
        case .exit(let code): status = code
        case .run(let command): status = await Self.run(command, context: context)
        }
        return Self.checkingOutput(status, context: context)
    }

    /// What the command line asks for: an answer already given (help, version, a usage error)
    /// or a validated command to run.
    private enum Prepared {
        case exit(ExitCode)
        case run(any AsyncCommand)
    }

    private func prepare(_ arguments: [String], context: CommandContext) -> Prepared {
        guard let first = arguments.first else {
            context.error("no command given (see \(name) --help)")
            context.usage(usageLine)
            return .exit(.usage)
        }
        switch first {
        case "-h", "--help", "help":
            guard first == "help", arguments.count > 1 else {
                context.print(helpText)
                return .exit(.success)
            }
            guard let type = command(named: arguments[1]) else {
                context.error("unknown command \(Quoted(arguments[1])) (see \(name) --help)")
                context.usage(usageLine)
                return .exit(.usage)
            }
            context.print(type.spec.helpText)
            return .exit(.success)
        case "--version", "-V":
            context.print("\(name) \(version)\n")
            return .exit(.success)
        default:
            break
        }
        guard let type = command(named: first) else {
            context.error("unknown command \(Quoted(first)) (see \(name) --help)")
            context.usage(usageLine)
            return .exit(.usage)
        }
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: type.spec)
            if parsed.has("help") {
                context.print(type.spec.helpText)
                return .exit(.success)
            }
            return .run(try type.init(parsed, context: context))
        } catch {
            return .exit(Self.report(error, spec: type.spec, context: context))
        }
    }

    /// Runs `command`: a one-shot command on its own `CommandExecutor` (its ledger's threads once
    /// it has opened one), a command that serves on Swift's pool.
    private static func run(_ command: any AsyncCommand, context: CommandContext) async -> ExitCode {
        // Without a thread of its own (the system refused one), a command runs as `serve` does.
        guard !type(of: command).serves, let executor = try? CommandExecutor() else { return await attempt(command, context: context) }
        return await executor.run { await attempt(command, context: context) }
    }

    private static func attempt(_ command: any AsyncCommand, context: CommandContext) async -> ExitCode {
        do {
            return try await command.run(context)
        } catch {
            return report(error, spec: type(of: command).spec, context: context)
        }
    }

    /// A failure's message and, for a usage error, what the command accepts.
    private static func report(_ error: CommandError, spec: CommandSpec, context: CommandContext) -> ExitCode {
        context.error(error.message)
        if error.code == .usage { context.usage(spec.usageLine) }
        return error.code
    }

    /// Success that lost its output on the way (`> /dev/full`) is 74, with one message.
    private static func checkingOutput(_ status: ExitCode, context: CommandContext) -> ExitCode {
        if let failure = StandardStream.outputFailure, status != .ioError {
            context.error(failure.description)
            return .ioError
        }
        return status
    }

    /// The process's arguments (without the program name), checked for UTF-8. Nil, after a
    /// message, when one is not UTF-8 (exit 65).
    public func processArguments(_ context: CommandContext) -> [String]? {
        do {
            return try ProcessArguments.current()
        } catch {
            context.error("argument \(error.index) is not valid UTF-8")
            return nil
        }
    }
}
