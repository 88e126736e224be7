import ServerDomain
import ServerPostgres
import ServerSQLite
import SharedCLI
import SharedDomain
import SharedSystem

/// The setup every command on the visitor log shares: the `--config` and `--database` options,
/// the setting layers they feed (config files, `QRCHECKIN_SERVER_*` variables, flags), the
/// ledger's location, and opening it. Commands that write as the server does (`serve`,
/// `checkin`) also read the ledger's tuning (`durability`, `database-pool`); the others never
/// read those settings, so a bad value of one cannot stop them.
struct LedgerCommandOptions {
    /// `--config FILE`, repeatable; `help` is how the command reads the files.
    static func config(help: String = "Read settings from FILE, as 'serve' does (default $QRCHECKIN_SERVER_CONFIG).") -> OptionSpec {
        OptionSpec("config", short: "c", value: "FILE", repeatable: true, help: help)
    }

    /// `--config` and `--database`, the first options of every command but `serve` (whose
    /// options are all the settings); `database` says what the command does with it.
    static func options(database help: String = "sqlite:PATH or postgresql://… (default: as 'serve').") -> [OptionSpec] {
        [config(), OptionSpec(ServerSetting.database.name, value: ServerSetting.database.key.value, help: help)]
    }

    /// Every setting's text from the config files, the environment and the flags.
    let layers: SettingLayers
    /// The `database` setting, or the standard place when none is set.
    let database: DatabaseLocation
    /// How SQLite commits: full, unless the command reads the durability setting.
    let durability: SQLiteDurability
    /// PostgreSQL connections kept open at most: the default, unless the command reads the setting.
    let poolSize: Int

    /// Reads the layers and the database's location from `arguments` and `environment`;
    /// `tuned` also reads `durability` and `database-pool`.
    init(_ arguments: ParsedArguments, environment: [String: String], tuned: Bool = false) throws(CommandError) {
        layers = try SettingLayers(flags: arguments, environment: environment, catalog: .server)
        // Every command on the log prints local times: all of them in the configured zone.
        if let zone = try layers.value(ServerSetting.timeZone) { TimeZoneSetting.apply(zone) }
        database = try DatabaseLocation.chosen(in: layers, environment: environment)
        guard tuned else {
            durability = .full
            poolSize = PostgresLedger.defaultPoolSize
            return
        }
        durability = try layers.value(ServerSetting.durability)
        poolSize = try layers.value(ServerSetting.databasePool)
    }

    /// The ledger at `database`; `create` as `LedgerOpener.open` takes it (a missing SQLite file
    /// made, a PostgreSQL schema brought up to date).
    func openLedger(create: Bool = false, clock: any WallClock = SystemClock(),
                    observer: (any LedgerObserver)? = nil) async throws(CommandError) -> OpenedLedger {
        try await LedgerOpener.open(database, create: create, durability: durability, poolSize: poolSize, clock: clock, observer: observer)
    }

    /// The ledger for a command that only reads and must answer even when nothing can be
    /// written (the evacuation roll on a full disk): opened as usual, else, for SQLite, read-only
    /// without touching the disk (`SQLiteLedger(readingOnly:)`); `fellBack` is told why.
    func openLedgerForReading(clock: any WallClock = SystemClock(), fellBack: (String) -> Void) async throws(CommandError) -> OpenedLedger {
        do throws(CommandError) {
            return try await openLedger(clock: clock)
        } catch {
            guard case .sqlite(let path, _) = database, error.code != .noInput else { throw error }
            let opened = try await LedgerOpener.openReadingOnly(path)
            fellBack(error.message)
            return opened
        }
    }
}
