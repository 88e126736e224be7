import SharedCLI
/// `qrcheckin shake`: the seed's shake gesture — ask the daemon for a fresh code now.
struct ShakeCommand: Command {
    static let spec = CommandSpec(
        name: "shake",
        summary: "Shake: ask the daemon for a fresh code now (when shake mode is on).",
        options: ClientOptions.specs,
        discussion: """
            Same as sending SIGUSR1 to the daemon, but says what happened. Shake mode is set
            with 'qrcheckin ctl shake on|off'. At most one shake a second is honoured: one
            within a second of the last is answered with the code that shake issued (exit 0,
            nothing written). 'ctl refresh now' is not limited.

            EXIT STATUS: 0 a fresh code is shown; 1 ignored because shake mode is off or
            refresh is paused, or no fresh code could be issued or written (the clock is
            behind, the disk is full); 69 the daemon is not running; 74 standard output cannot
            be written; 77 permission denied on the socket, or the daemon's directory fails the
            trust check (docs/STATE.md) or another user's process answers on its socket; 78
            invalid configuration.
            """
    )

    let options: ClientOptions

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        options = try ClientOptions(arguments, context: context)
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let reply = try options.request("shake")
        guard reply.ok else { throw CommandError(.failure, reply.error) }
        try context.output(reply.summary(.fromLocale(context.environment)) + "\n")
        return .success
    }
}
