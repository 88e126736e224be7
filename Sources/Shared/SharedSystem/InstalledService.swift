import Glibc
import SharedDomain

/// The files the packaged units give the daemon: `qrcheckin.service` reads the config
/// `/etc/qrcheckin/qrcheckin.conf` and loads `/etc/qrcheckin/secret` as its credential;
/// `qrcheckin@VENUE` reads that config, then `/etc/qrcheckin/VENUE.conf` when it exists, and
/// loads `/etc/qrcheckin/secrets/VENUE`. `code` and `verify` use them when nothing names a
/// config or a secret and this user may read the service's secret (root, as a rule), so on a
/// packaged host they agree with the running daemon instead of a secret of their own.
public struct InstalledService: Sendable, Equatable {
    /// The packaged units' configuration directory (`ConfigurationDirectory=qrcheckin`).
    public static let system = InstalledService(directory: "/etc/qrcheckin")

    /// Where the config and the secrets are.
    public let directory: String

    /// The service whose files are in `directory` (tests use a directory of their own).
    public init(directory: String) {
        self.directory = directory
    }

    /// The files one daemon of this installation reads.
    public struct Files: Sendable, Equatable {
        /// Its config files in layering order, each optional (the venue's own one is).
        public let configFiles: [String]
        /// Its credential: the venue's key when that file exists, else the master secret.
        public let secretFile: String

        /// The files of one daemon.
        public init(configFiles: [String], secretFile: String) {
            self.configFiles = configFiles
            self.secretFile = secretFile
        }
    }

    /// The files of `qrcheckin@VENUE` for `venue` when its key file or config file exists, else
    /// those of `qrcheckin.service` (whose master secret also signs for every venue).
    public func files(for venue: VenueID?) -> Files {
        let shared = directory + "/qrcheckin.conf"
        guard let venue else { return Files(configFiles: [shared], secretFile: directory + "/secret") }
        let key = directory + "/secrets/" + venue.rawValue
        let own = directory + "/" + venue.rawValue + ".conf"
        let isInstance = DefaultLocations.pathExists(key) || DefaultLocations.pathExists(own)
        return Files(configFiles: isInstance ? [shared, own] : [shared],
                     secretFile: DefaultLocations.pathExists(key) ? key : directory + "/secret")
    }

    /// `files(for:)` when this user may read their secret (the service is installed and this is
    /// root, or someone given access), else nil: then the user's own defaults apply.
    public func usableFiles(for venue: VenueID?) -> Files? {
        let files = files(for: venue)
        return access(files.secretFile, R_OK) == 0 ? files : nil
    }

    /// The service's secret for `venue` as the secret lookup sees it, or nil when the service
    /// is not installed (no secret file).
    public func secret(for venue: VenueID?) -> Secret? {
        let path = files(for: venue).secretFile
        guard DefaultLocations.pathExists(path) else { return nil }
        return access(path, R_OK) == 0 ? .readable(path) : .unreadable(path)
    }

    /// The installed service's secret file and whether this user may read it.
    public enum Secret: Sendable, Equatable {
        /// Used: it is what the installed daemon signs with.
        case readable(String)
        /// Only named when nothing else is found (run as root to use it).
        case unreadable(String)
    }
}
