import Glibc
import ServerDomain
import ServerPostgres
import SharedCLI
import SharedDomain

/// Where the visitor log lives: `sqlite:PATH`, the embedded default, or a PostgreSQL database
/// several servers share (`postgresql://…`, or `postgresql:` and libpq's key=value pairs).
enum DatabaseLocation: Equatable {
    /// A SQLite file; `isDefault` when no setting named it (its directory is then created).
    case sqlite(path: String, isDefault: Bool)
    /// A PostgreSQL database, as libpq connects to it.
    case postgresql(PostgresConnectionString)

    /// The default: `$STATE_DIRECTORY/checkins.db` under systemd, else
    /// `/var/lib/qrcheckin-server/checkins.db` for root, else the user's state directory.
    /// The `database` setting from `layers`, or the standard place when none is set.
    static func chosen(in layers: SettingLayers, environment: [String: String]) throws(CommandError) -> DatabaseLocation {
        try layers.value(ServerSetting.database) ?? standard(environment: environment)
    }

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
                throw source.error("must be sqlite:PATH with a file path (sqlite:/var/lib/qrcheckin-server/checkins.db), got \(Quoted(text))")
            }
            return .sqlite(path: path, isDefault: false)
        }
        do throws(LedgerError) {
            if let connection = try PostgresConnectionString(databaseSetting: text) { return .postgresql(connection) }
        } catch {
            throw source.error(error.message)
        }
        // The setting may hold a password (another scheme's URL, a mistyped one): never repeated.
        throw source.error("must be sqlite:PATH, postgresql://… or postgresql:KEY=VALUE …")
    }

    /// The setting for logs: a PostgreSQL string without its password.
    var description: String {
        switch self {
        case .sqlite(let path, _): "sqlite:" + path
        case .postgresql(let connection): "postgresql: " + connection.description
        }
    }
}
