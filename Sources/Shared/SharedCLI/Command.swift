/// A subcommand: parsed and validated in `init`, then run. One type per subcommand.
public protocol Command: Sendable {
    /// Names, options and help.
    static var spec: CommandSpec { get }
    /// Validates the arguments; every mistake is a usage error (exit 64) before anything runs.
    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError)
    /// Does the work and returns the exit status (failures throw instead).
    func run(_ context: CommandContext) throws(CommandError) -> ExitCode
}
