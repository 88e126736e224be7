/// A command's failure: the exit status and the one-line message printed to standard error.
public struct CommandError: Error, Sendable {
    /// The documented exit status.
    public let code: ExitCode
    /// What went wrong, naming the thing that was wrong.
    public let message: String

    /// A failure with exit status `code`.
    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A command-line mistake (exit 64).
    public static func usage(_ message: String) -> CommandError { CommandError(.usage, message) }
}
