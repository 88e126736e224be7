import CheckInPresentation

/// `qrcheckin ctl`: steers a running daemon over its control socket.
struct CtlCommand: Command {
    static let spec = CommandSpec(
        name: "ctl",
        summary: "Steer a running daemon: shake mode, refresh mode, or read its state.",
        usage: "ctl [--socket PATH] [--json] get | shake on|off|toggle | refresh auto|pause|now",
        options: ClientOptions.specs + [OptionSpec("json", help: "Print the daemon's reply as JSON.")],
        positionals: 1...2,
        discussion: """
            get                   print the current state
            shake on|off|toggle   set shake mode (on: a shake issues a fresh code at once)
            refresh auto|pause    rotate codes automatically, or pause (no code is shown)
            refresh now           issue a fresh code now

            Settings persist in the daemon's state directory and survive restarts. Allowed:
            root, the daemon's user, and members of its --ops-group.

            EXIT STATUS: 0 done; 1 the daemon refused the request; 64 bad command line;
            69 the daemon is not running; 77 permission denied on the socket; 78 invalid
            configuration.
            """
    )

    let request: String
    let options: ClientOptions
    let json: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        request = arguments.positionals.joined(separator: " ")
        do {
            _ = try ControlRequest(line: request)
        } catch {
            throw .usage(error.message)
        }
        guard request != "shake" else { throw .usage("'ctl shake' needs on, off or toggle (to shake, run 'qrcheckin shake')") }
        options = try ClientOptions(arguments, context: context)
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let reply = try options.request(request)
        if json {
            context.print(reply.text + "\n")
        } else if reply.ok {
            context.print(reply.summary + "\n")
        }
        guard reply.ok else { throw CommandError(.failure, "the daemon refused '\(request)': \(reply.error)") }
        return .success
    }
}
