import CheckInData
import CheckInJSON
import Glibc

/// How `status`, `ctl`, `shake` (and `show`) find a running daemon: the same config file,
/// environment and defaults as `run`, so with no options they find the default daemon; a user
/// with no daemon of their own finds the system daemon (`/run/qrcheckin`).
struct ClientOptions: Sendable {
    static let specs: [OptionSpec] = [
        OptionSpec("output-dir", value: "DIR", help: "The daemon's output directory (default: as 'run')."),
        OptionSpec("socket", value: "PATH", help: "The daemon's control socket (default OUTPUT/control.sock)."),
        OptionSpec("config", short: "c", value: "FILE", help: "Read output-dir and socket from the daemon's config file."),
    ]

    let outputDirectory: String
    let socketPath: String

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        // Only output-dir and socket are read: the daemon's other settings (ops-group, period, …)
        // are not a client's business, so a value only the daemon could resolve cannot stop it.
        let configuration = try DaemonConfiguration.Locations(flags: arguments, environment: context.environment)
        let userDefault = DefaultLocations(environment: context.environment).outputDirectory
        // Only when neither flag, variable nor config file chose the place (both still defaults).
        if configuration.outputDirectory == userDefault, configuration.socketPath == userDefault + "/control.sock" {
            outputDirectory = DefaultLocations.clientOutputDirectory(userDefault: userDefault)
            socketPath = outputDirectory + "/control.sock"
        } else {
            outputDirectory = configuration.outputDirectory
            socketPath = configuration.socketPath
        }
    }

    /// Sends one request and returns the parsed reply, mapping failures to exit statuses.
    func request(_ line: String) throws(CommandError) -> JSONValueReply {
        let text: String
        do {
            text = try ControlClient.send(line, to: socketPath)
        } catch {
            switch error {
            case .notRunning: throw CommandError(.unavailable, error.description)
            case .permissionDenied: throw CommandError(.noPermission, Self.refusal(socketPath, fallback: error.description))
            case .noReply: throw CommandError(.unavailable, error.description)
            case .busy: throw CommandError(.unavailable, error.description)
            }
        }
        let reply = JSONValueReply(text: text)
        if reply.value?["code"]?.string == "permission-denied" { throw CommandError(.noPermission, reply.error) }
        return reply
    }

    /// Names the group that may steer (the socket's group) and how to join it.
    static func refusal(_ socketPath: String, fallback: String) -> String {
        var status = stat()
        guard stat(socketPath, &status) == 0, status.st_gid != 0, let entry = getgrgid(status.st_gid) else { return fallback }
        let group = String(cString: entry.pointee.gr_name)
        return "permission denied on \(socketPath): only root, the daemon's user and members of group "
            + "'\(group)' may steer the daemon (an administrator adds you: sudo usermod -aG \(group) USER; "
            + "then log in again)"
    }
}
