import CheckInCLI
import Glibc

/// Where the visitor log lives: `sqlite:PATH`, the embedded default.
enum DatabaseLocation: Equatable {
    /// A SQLite file; `isDefault` when no setting named it (its directory is then created).
    case sqlite(path: String, isDefault: Bool)

    /// The default: `$STATE_DIRECTORY/checkins.db` under systemd, else
    /// `/var/lib/qrcheckin-server/checkins.db` for root, else the user's state directory.
    static func standard(environment: [String: String], userID: uid_t = getuid()) -> DatabaseLocation {
        .sqlite(path: defaultDirectory(environment: environment, userID: userID) + "/checkins.db", isDefault: true)
    }

    /// The directory of the default database.
    static func defaultDirectory(environment: [String: String], userID: uid_t = getuid()) -> String {
        if let state = environment["STATE_DIRECTORY"], let first = state.split(separator: ":").first, !first.isEmpty {
            return String(first)
        }
        if userID == 0 { return "/var/lib/qrcheckin-server" }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/qrcheckin-server" }
        return (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/") + "/.local/state/qrcheckin-server"
    }

    /// Parses the `database` setting; errors name the source.
    static func parse(_ text: String, from source: SettingSource) throws(CommandError) -> DatabaseLocation {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty, !path.contains("\0"), !path.hasPrefix("//") else {
                throw source.error("must be sqlite:PATH with a file path (sqlite:/var/lib/qrcheckin-server/checkins.db), got '\(text)'")
            }
            return .sqlite(path: path, isDefault: false)
        }
        if text.hasPrefix("postgresql:") || text.hasPrefix("postgres:") {
            throw source.error("PostgreSQL is not supported by this build of qrcheckin-server; use sqlite:PATH")
        }
        throw source.error("must be sqlite:PATH, got '\(text)'")
    }

    /// The setting's text.
    var description: String {
        switch self {
        case .sqlite(let path, _): "sqlite:" + path
        }
    }
}
