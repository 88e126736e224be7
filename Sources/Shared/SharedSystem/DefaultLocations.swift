import Glibc

/// Where qrcheckin keeps things when no flag says otherwise. `run`, `status`, `show`, `ctl` and
/// the secret lookup all use this one table, so they agree without configuration.
///
/// | what   | systemd service        | root               | other users                                   |
/// |--------|------------------------|--------------------|-----------------------------------------------|
/// | output | `$RUNTIME_DIRECTORY`   | `/run/qrcheckin`   | `$XDG_RUNTIME_DIR/qrcheckin`, else `/tmp/qrcheckin-$UID` |
/// | state  | `$STATE_DIRECTORY`     | `/var/lib/qrcheckin` | `$XDG_STATE_HOME/qrcheckin`, else `~/.local/state/qrcheckin` |
///
/// Which daemon a command talks to is resolved from this table by `DaemonLocations` (clients of a
/// user with no daemon of their own fall back to the system daemon's). Many venues on one host use
/// the subdirectories `OUTPUT/VENUE` and `STATE/VENUE` (`venue(_:)`, `VenueDirectories`).
public struct DefaultLocations: Sendable, Equatable {
    /// Directory of `current.png`, `current.json`, `current.txt` and the control socket.
    public let outputDirectory: String
    /// Directory of persisted settings and the generated secret.
    public let stateDirectory: String

    /// Derives the locations from the environment and the user id.
    public init(environment: [String: String], userID: uid_t = getuid()) {
        // systemd passes colon-separated lists when a unit names several directories.
        func systemd(_ name: String) -> String? {
            environment[name].flatMap { $0.split(separator: ":").first.map(String.init) }
        }
        func nonEmpty(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let home = nonEmpty("HOME") ?? "/"
        if let runtime = systemd("RUNTIME_DIRECTORY") {
            outputDirectory = runtime
        } else if userID == 0 {
            outputDirectory = "/run/qrcheckin"
        } else if let runtime = nonEmpty("XDG_RUNTIME_DIR") {
            outputDirectory = runtime + "/qrcheckin"
        } else {
            outputDirectory = "/tmp/qrcheckin-\(userID)"
        }
        if let state = systemd("STATE_DIRECTORY") {
            stateDirectory = state
        } else if userID == 0 {
            stateDirectory = "/var/lib/qrcheckin"
        } else if let state = nonEmpty("XDG_STATE_HOME") {
            stateDirectory = state + "/qrcheckin"
        } else {
            stateDirectory = home + "/.local/state/qrcheckin"
        }
    }

    /// Explicit locations (flags or a config file chose them).
    public init(outputDirectory: String, stateDirectory: String) {
        self.outputDirectory = outputDirectory
        self.stateDirectory = stateDirectory
    }

    /// The generated secret's path in the state directory.
    public var secretFile: String { stateDirectory + "/secret" }

    /// The system daemon's output directory: the unit's `RuntimeDirectory=`, and root's default.
    public static let systemOutputDirectory = "/run/qrcheckin"
    /// The system daemon's state directory: the unit's `StateDirectory=`, and root's default.
    public static let systemStateDirectory = "/var/lib/qrcheckin"

    /// Venue `venue`'s locations in the many-venues layout: `OUTPUT/VENUE` and `STATE/VENUE`,
    /// as the template unit `qrcheckin@VENUE` sets them (see `VenueDirectories`).
    public func venue(_ venue: String) -> DefaultLocations {
        DefaultLocations(outputDirectory: outputDirectory + "/" + venue, stateDirectory: stateDirectory + "/" + venue)
    }

    /// Whether anything (file, socket, dangling symlink) is at `path`.
    public static func pathExists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
