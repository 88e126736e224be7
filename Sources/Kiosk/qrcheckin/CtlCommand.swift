import Glibc
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin ctl`: steers a running daemon over its control socket.
struct CtlCommand: Command {
    static let spec = CommandSpec(
        name: "ctl",
        summary: "Steer a running daemon: shake mode, refresh mode, or read its state.",
        operands: [.words("get | shake on|off|toggle | refresh auto|pause|now")],
        options: ClientOptions.specs + [OptionSpec("json", help: "Print the daemon's reply as JSON.")],
        positionals: 0...2,
        discussion: """
            get                   print the current state
            shake on|off|toggle   set shake mode (on: a shake issues a fresh code at once)
            refresh auto|pause    rotate codes automatically, or pause (no code is shown)
            refresh now           issue a fresh code now

            Settings persist in the daemon's state directory and survive restarts; a change
            that cannot be saved there is refused and codes pause until it can be. Allowed:
            root, the daemon's user, and members of its --ops-group. --venue V steers venue
            V's daemon (OUTPUT/V/control.sock, as the unit qrcheckin@V sets it up).

            EXIT STATUS: 0 done, saved and on disk; 1 the daemon refused the request or
            could not do it (not saved, not written, no code issued); 64 bad command line;
            69 the daemon is not running; 74 standard output cannot be written; 77
            permission denied on the socket, or the daemon's directory fails the trust check
            (another user could have made or changed it; docs/STATE.md) or another user's
            process answers on its socket; 78 invalid configuration.
            """
    )

    let request: String
    let options: ClientOptions
    let json: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        try Self.check(arguments.positionals)
        request = arguments.positionals.joined(separator: " ")
        options = try ClientOptions(arguments, context: context)
        json = arguments.has("json")
    }

    /// The requests and their words, for the messages that say what was expected.
    private static let expected: [(request: String, words: [String])] = [
        ("get", []), ("shake", ["on", "off", "toggle"]), ("refresh", ["auto", "pause", "now"]),
    ]

    /// Refuses a missing, unknown or incomplete request, naming what would have been right.
    static func check(_ words: [String]) throws(CommandError) {
        let list = expected.map { ([$0.request] + [$0.words.joined(separator: "|")]).filter { !$0.isEmpty }.joined(separator: " ") }
        guard let first = words.first else {
            throw .usage("ctl needs a request: " + list.joined(separator: ", "))
        }
        guard let entry = expected.first(where: { $0.request == first }) else {
            throw .usage("unknown request \(Quoted(first)): expected " + list.joined(separator: ", "))
        }
        let choices = entry.words.joined(separator: "|")
        switch (entry.words.isEmpty, words.count) {
        case (true, 1):
            return
        case (true, _):
            throw .usage("'ctl \(first)' takes no argument, got \(Quoted(words[1]))")
        case (false, 1):
            let hint = first == "shake" ? " (to shake, run 'qrcheckin shake')" : ""
            throw .usage("'ctl \(first)' expects \(choices)\(hint)")
        default:
            // 'paused' is how current.json spells the mode, so it is accepted too.
            guard entry.words.contains(words[1]) || words[1...] == ["paused"] && first == "refresh" else {
                throw .usage("'ctl \(first)' expects \(choices), got \(Quoted(words[1]))")
            }
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        // A change names who made it, locally: `status` shows "paused locally by alice at 14:02".
        let actor = UserDatabase.name(of: geteuid()).flatMap(OperatorName.init).map { ModeActor(source: .local, name: $0) }
        let reply = try options.request(request + (request == "get" ? "" : actor.map { " by \($0)" } ?? ""))
        if json {
            try context.output(reply.text + "\n")
        } else if reply.ok {
            try context.output(reply.summary(.fromLocale(context.environment)) + "\n")
        }
        guard reply.ok else { throw CommandError(.failure, "the daemon refused \(Quoted(request)): \(reply.error)") }
        return .success
    }
}
