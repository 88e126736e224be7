import CheckInCLI
import CheckInData
import CheckInDomain
import CheckInServerDomain
import CheckInSQLite

/// Opens the ledger a `database` setting names: the composition root's one place that knows
/// which adapters exist.
enum LedgerOpener {
    /// The ledger at `location`; `create` makes a missing SQLite file (and, for the default
    /// location, its directory, mode 0700).
    static func open(_ location: DatabaseLocation, create: Bool, durability: SQLiteDurability = .full,
                     clock: any WallClock) throws(CommandError) -> any CheckInLedger {
        switch location {
        case .sqlite(let path, let isDefault):
            if create && isDefault, let slash = path.lastIndex(of: "/") {
                do {
                    try TextFile.makeDirectory(String(path[..<slash]), mode: 0o700)
                } catch {
                    throw CommandError(.cannotCreate, "cannot create the database's directory: \(error)")
                }
            }
            do throws(LedgerError) {
                return try SQLiteLedger(path: path, create: create, durability: durability, clock: clock)
            } catch {
                if error.kind == .missing, !create {
                    throw CommandError(.noInput, "\(error.message) (no check-ins recorded yet, or set --database)")
                }
                throw CommandError(error)
            }
        }
    }
}
