import SharedCLI
import SharedSystem

/// A subcommand whose work is `async` (the server's): parsed and validated in `init`, as a
/// `Command` is, then run as a task. A program of them is an `AsyncCommandLineTool`.
public protocol AsyncCommand: Sendable {
    /// Names, options and help.
    static var spec: CommandSpec { get }
    /// The signals the command takes as events (`SignalSequence`) instead of their action:
    /// blocked on the main thread before `run`, so that they reach its sequence (a server's
    /// SIGTERM and SIGINT). Empty for most: Ctrl-C ends them.
    static var signals: Set<UnixSignal> { get }
    /// Whether the command serves until stopped (`serve`): its requests run on Swift's pool.
    /// Every other command is one task that runs on the threads it adopts (`CommandExecutor`).
    static var serves: Bool { get }
    /// Validates the arguments; every mistake is a usage error (exit 64) before anything runs.
    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError)
    /// Does the work and returns the exit status (failures throw instead).
    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode
}

extension AsyncCommand {
    /// No signals: their default action (Ctrl-C, SIGTERM end the command).
    public static var signals: Set<UnixSignal> { [] }
    /// A one-shot command.
    public static var serves: Bool { false }
}

/// A synchronous `Command` in an `AsyncCommandLineTool`, so a program can move its commands to
/// `async` one at a time. Its `run` blocks the task's thread: fine for a command that is the
/// process's only work (one-shot commands), never for one that serves.
public struct SynchronousCommand<Wrapped: Command>: AsyncCommand {
    /// The wrapped command's spec.
    public static var spec: CommandSpec { Wrapped.spec }

    private let command: Wrapped

    /// Parses as the wrapped command does.
    public init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        command = try Wrapped(arguments, context: context)
    }

    /// Runs the wrapped command.
    public func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        try command.run(context)
    }
}
