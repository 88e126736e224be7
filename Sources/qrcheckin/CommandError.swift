/// A command's failure: the exit status and the one-line message printed to standard error.
struct CommandError: Error, Sendable {
    /// The documented exit status.
    let code: ExitCode
    /// What went wrong, naming the thing that was wrong.
    let message: String

    init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A command-line mistake (exit 64).
    static func usage(_ message: String) -> CommandError { CommandError(.usage, message) }
}
