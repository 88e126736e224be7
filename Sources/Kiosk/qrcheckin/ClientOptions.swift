import KioskAdapters
import KioskCore
import SharedCLI
import SharedDomain
import SharedJSON
import SharedSystem

/// How `status`, `ctl`, `shake` (and `show`) find a running daemon: the same config file,
/// environment and defaults as `run`, so with no options they find the default daemon; a user
/// with no daemon of their own finds the system daemon (`/run/qrcheckin`). `--venue V` finds
/// venue V's daemon among many on the host (`VenueDirectories`: `OUTPUT/V`, or the default
/// daemon when it serves V).
struct ClientOptions: Sendable {
    static let specs: [OptionSpec] = [
        OptionSpec("venue", value: "VENUE", help: "Find venue VENUE's daemon (OUTPUT/VENUE, or the default one)."),
        OptionSpec("output-dir", value: "DIR", help: "The daemon's output directory (default: as 'run')."),
        OptionSpec("socket", value: "PATH", help: "The daemon's control socket (default OUTPUT/control.sock)."),
        OptionSpec("config", short: "c", value: "FILE", repeatable: true,
                   help: "Read output-dir and socket from the daemon's config file(s)."),
    ]

    let outputDirectory: String
    let socketPath: String
    /// Where venues are looked for (`--venue`, `status --all`).
    let venues: VenueDirectories
    /// Who may answer on the socket (from its directory); nil while that directory is missing.
    let socketPeer: ExpectedPeer?

    /// Resolves the daemon's directory; `allVenues` (`status --all`) refuses `--venue` and
    /// `--socket`, which name one daemon.
    init(_ arguments: ParsedArguments, context: CommandContext, allVenues: Bool = false) throws(CommandError) {
        // Only output-dir, socket and state-dir are read: the daemon's other settings
        // (ops-group, period, …) are not a client's business, so a value only the daemon could
        // resolve cannot stop it.
        let locations = try DaemonLocations(SettingLayers(flags: arguments, environment: context.environment),
                                            environment: context.environment)
        var venue: VenueID?
        if let text = arguments["venue"] { venue = try SettingParser.venue(text, .flag("venue")) }
        if allVenues, venue != nil { throw .usage("--all lists every venue; --venue names one: give either") }
        if venue != nil || allVenues, arguments["socket"] != nil {
            throw .usage("--socket names one daemon; with \(allVenues ? "--all" : "--venue") each venue's socket is OUTPUT/VENUE/control.sock")
        }
        venues = VenueDirectories(roots: locations.venueRoots())
        let daemon = locations.client(venue: venue, in: venues, venueOf: Self.venue(of:))
        outputDirectory = daemon.outputDirectory
        socketPath = daemon.socketPath
        // Nothing in a directory another user could have made or changed is believed
        // (docs/STATE.md, Directory trust); `--all` judges each venue's on its own line.
        guard !allVenues else {
            socketPeer = nil
            return
        }
        do {
            _ = try DaemonDirectory.lookUp(outputDirectory)
            socketPeer = try DaemonDirectory.lookUp(PathName.directory(of: socketPath)).map { ExpectedPeer(directory: $0) }
        } catch {
            throw CommandError(.noPermission, DaemonDirectory.refusal(error))
        }
    }

    /// The venue in `directory/current.json`, if it can be read.
    static func venue(of directory: String) -> String? {
        (try? TextFile.read(directory + "/current.json", limit: 64 * 1024)).flatMap { try? StateDocument(parsing: $0).venue }
    }

    /// Sends one request and returns the parsed reply, mapping failures to exit statuses.
    func request(_ line: String) throws(CommandError) -> JSONValueReply {
        let text: String
        do {
            text = try ControlClient.send(line, to: socketPath, peer: socketPeer)
        } catch {
            switch error {
            case .notRunning: throw CommandError(.unavailable, error.description)
            case .permissionDenied: throw CommandError(.noPermission, Self.refusal(socketPath, fallback: error.description))
            case .unexpectedPeer: throw CommandError(.noPermission, error.description)
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
        guard let group = GroupDatabase.ownerGroupName(ofFileAt: socketPath) else { return fallback }
        return "permission denied on \(socketPath): only root, the daemon's user and members of group "
            + "'\(group)' may steer the daemon (an administrator adds you: sudo usermod -aG \(group) USER; "
            + "then log in again)"
    }
}
