import SharedDomain
import SharedSystem

/// Which daemon: its output directory, control socket and state directory, resolved once from
/// what the settings chose (nil where no flag, variable or config file set it) over the
/// `DefaultLocations` table. `run` serves these; `status`, `ctl`, `shake`, `show` and the secret
/// lookup of `code` and `verify` find the daemon by them, so every command agrees.
///
/// A client that was told nothing (no output-dir, no socket) also looks at the system daemon
/// (`/run/qrcheckin`) when the user's own directory holds no daemon, and `--venue V` searches
/// the venues' directories (`VenueDirectories`). Whether a location was chosen is known from the
/// settings themselves, never guessed by comparing a path with its default.
public struct DaemonLocations: Sendable, Equatable {
    /// Directory of `current.png`, `current.json`, `current.txt`.
    public let outputDirectory: String
    /// The control socket: the chosen one, else `OUTPUT/control.sock`.
    public let socketPath: String
    /// Directory of persisted settings and the generated secret.
    public let stateDirectory: String
    /// This user's defaults (the table the unchosen locations came from).
    public let defaults: DefaultLocations
    /// Whether the settings chose the output directory or the socket (then a client looks
    /// nowhere else).
    public let isChosen: Bool
    /// Whether the settings chose the state directory.
    public let isStateChosen: Bool

    /// The locations from what the settings chose (nil: unset) and this user's defaults.
    public init(outputDirectory: String?, socketPath: String?, stateDirectory: String?, defaults: DefaultLocations) {
        let output = outputDirectory ?? defaults.outputDirectory
        self.outputDirectory = output
        self.socketPath = socketPath ?? Self.socket(in: output)
        self.stateDirectory = stateDirectory ?? defaults.stateDirectory
        self.defaults = defaults
        isChosen = outputDirectory != nil || socketPath != nil
        isStateChosen = stateDirectory != nil
    }

    /// The control socket's path in a daemon's output directory.
    public static func socket(in outputDirectory: String) -> String { outputDirectory + "/control.sock" }

    /// The locations the secret lookup uses (`SecretFile`: the state directory's `secret`).
    public var secretLocations: DefaultLocations {
        DefaultLocations(outputDirectory: outputDirectory, stateDirectory: stateDirectory)
    }

    /// Where a client looks for venues (`--venue`, `status --all`): the chosen output directory
    /// alone (with the chosen state directory, if any), else this user's defaults then the
    /// system's (a user's own daemons win; an operator finds the service's).
    public func venueRoots() -> [VenueDirectories.Root] {
        guard !isChosen else {
            return [VenueDirectories.Root(output: outputDirectory, state: isStateChosen ? stateDirectory : nil)]
        }
        return [VenueDirectories.Root(output: defaults.outputDirectory, state: stateDirectory),
                VenueDirectories.Root(output: DefaultLocations.systemOutputDirectory, state: DefaultLocations.systemStateDirectory)]
    }

    /// One daemon a client talks to: its output directory and control socket.
    public struct Client: Sendable, Equatable {
        /// The daemon's output directory.
        public let outputDirectory: String
        /// Its control socket.
        public let socketPath: String

        /// A daemon's place.
        public init(outputDirectory: String, socketPath: String) {
            self.outputDirectory = outputDirectory
            self.socketPath = socketPath
        }
    }

    /// The daemon a client of `venue` (nil: no `--venue`) talks to. A venue is looked for in
    /// `venues` (`ROOT/VENUE`, or a root's own daemon serving it), else named where it would
    /// be; with nothing chosen, the user's default directory while it holds a daemon's files,
    /// else the system daemon's when that holds them, else the user's (so "not running" names
    /// the user's own); otherwise exactly the chosen places.
    public func client(venue: VenueID?, in venues: VenueDirectories, venueOf: (String) -> String?) -> Client {
        if let venue {
            let directory = venues.find(venue, venueOf: venueOf) ?? venues.expected(venue)
            return Client(outputDirectory: directory, socketPath: Self.socket(in: directory))
        }
        guard !isChosen else { return Client(outputDirectory: outputDirectory, socketPath: socketPath) }
        let user = defaults.outputDirectory
        let system = DefaultLocations.systemOutputDirectory
        let directory = user == system || venues.holdsDaemon(user) || !venues.holdsDaemon(system) ? user : system
        return Client(outputDirectory: directory, socketPath: Self.socket(in: directory))
    }
}
