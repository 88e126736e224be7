import ServerDomain
import ServerPostgres
import ServerSQLite
import SharedCLI
import SharedDomain
import SharedSystem

/// Opens the ledger a `database` setting names: the composition root's one place that knows
/// which adapters exist.
enum LedgerOpener {
    /// The ledger at `location`; `create` makes a missing SQLite file (and, for the default
    /// location, its directory, mode 0700) or brings a PostgreSQL schema up to date (without it,
    /// a schema behind this program is an error: run `migrate`).
    static func open(_ location: DatabaseLocation, create: Bool, durability: SQLiteDurability = .full,
                     poolSize: Int = PostgresLedger.defaultPoolSize, clock: any WallClock) throws(CommandError) -> any CheckInLedger {
        switch location {
        case .postgresql(let connection):
            do throws(LedgerError) {
                return try PostgresLedger(connection, poolSize: poolSize, migrate: create, clock: clock)
            } catch {
                throw CommandError(error)
            }
        case .sqlite(let path, let isDefault):
            do throws(LedgerError) {
                // The directory is held to the directory-trust rules (docs/STATE.md) before a
                // visitor log goes in it; the default one is made 0700 if missing.
                return try SQLiteLedger(path: path, create: create, directoryMode: isDefault ? 0o700 : nil,
                                        durability: durability, clock: clock)
            } catch {
                if error.kind == .missing, !create {
                    throw CommandError(.noInput, "\(error.message) (no check-ins recorded yet, or set --database)")
                }
                throw CommandError(error)
            }
        }
    }
}
