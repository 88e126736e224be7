import CheckInData
import CheckInJSON

/// How `status`, `ctl`, `shake` (and `show`) find a running daemon: the same config file,
/// environment and defaults as `run`, so with no options they find the default daemon.
struct ClientOptions: Sendable {
    static let specs: [OptionSpec] = [
        OptionSpec("output-dir", value: "DIR", help: "The daemon's output directory (default: as 'run')."),
        OptionSpec("socket", value: "PATH", help: "The daemon's control socket (default OUTPUT/control.sock)."),
        OptionSpec("config", short: "c", value: "FILE", help: "Read output-dir and socket from the daemon's config file."),
    ]

    let outputDirectory: String
    let socketPath: String

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        let configuration = try DaemonConfiguration.Locations(flags: arguments, environment: context.environment)
        outputDirectory = configuration.outputDirectory
        socketPath = configuration.socketPath
    }

    /// Sends one request and returns the parsed reply, mapping failures to exit statuses.
    func request(_ line: String) throws(CommandError) -> JSONValueReply {
        let text: String
        do {
            text = try ControlClient.send(line, to: socketPath)
        } catch {
            switch error {
            case .notRunning: throw CommandError(.unavailable, error.description)
            case .permissionDenied: throw CommandError(.noPermission, error.description)
            case .noReply: throw CommandError(.unavailable, error.description)
            }
        }
        let reply = JSONValueReply(text: text)
        if reply.value?["code"]?.string == "permission-denied" { throw CommandError(.noPermission, reply.error) }
        return reply
    }
}
