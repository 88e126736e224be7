import ServerDomain
import ServerPostgres
import ServerSQLite
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import Synchronization

/// Opens the ledger a `database` setting names: the composition root's one place that knows
/// which adapters exist, and how many threads their blocking work gets.
enum LedgerOpener {
    /// Threads of the blocking pool for a ledger at `location`, derived here alone. SQLite: its
    /// reads (each on a read connection of its own) and the console's password hashes; its
    /// writer and checkpointer have threads of their own. Four on two cores: reads are short
    /// and mostly from the page cache, and a slow one (an export's page, a dashboard's tally)
    /// or a sign-in's Argon2id (a tenth of a second) leaves three for the visitors' receipts.
    /// PostgreSQL: one per connection (each holds a thread for its whole round trip, so fewer
    /// threads would leave connections idle and check-ins waiting), and two for password hashes.
    static func poolThreads(for location: DatabaseLocation, poolSize: Int) -> Int {
        switch location {
        case .sqlite: 4
        case .postgresql: poolSize + 2
        }
    }

    /// The ledger at `location`, its reads on a new blocking pool; `create` makes a missing
    /// SQLite file (and, for the default location, its directory, mode 0700) or brings a
    /// PostgreSQL schema up to date (without it, a schema behind this program is an error: run
    /// `migrate`). `observer` is told of every call's answer.
    static func open(_ location: DatabaseLocation, create: Bool, durability: SQLiteDurability = .full,
                     poolSize: Int = PostgresLedger.defaultPoolSize, clock: any WallClock,
                     observer: (any LedgerObserver)? = nil) async throws(CommandError) -> OpenedLedger {
        let pool = try blockingPool(threads: poolThreads(for: location, poolSize: poolSize))
        switch location {
        case .postgresql(let connection):
            do throws(LedgerError) {
                let ledger = try await PostgresLedger.open(connection, poolSize: poolSize, migrate: create, clock: clock, blocking: pool,
                                                           observer: observer)
                return OpenedLedgers.keep(OpenedLedger(ledger: ledger, pool: pool, services: [PostgresWrites(ledger: ledger)],
                                                       close: { await ledger.finishWrites() }))
            } catch {
                await pool.shutdown()
                throw CommandError(error)
            }
        case .sqlite(let path, let isDefault):
            do throws(LedgerError) {
                // The directory is held to the directory-trust rules (docs/STATE.md) before a
                // visitor log goes in it; the default one is made 0700 if missing.
                let ledger = try await SQLiteLedger.open(path: path, create: create, directoryMode: isDefault ? 0o700 : nil,
                                                         durability: durability, clock: clock, pool: pool, observer: observer)
                return OpenedLedgers.keep(OpenedLedger(ledger: ledger, pool: pool, services: ledger.services, close: { await ledger.close() }))
            } catch {
                await pool.shutdown()
                if error.kind == .missing, !create {
                    throw CommandError(.noInput, "\(error.message) (no check-ins recorded yet, or set --database)")
                }
                throw CommandError(error)
            }
        }
    }

    /// The SQLite ledger at `path` opened for reading only (`SQLiteLedger(readingOnly:)`).
    static func openReadingOnly(_ path: String) async throws(CommandError) -> OpenedLedger {
        let pool = try blockingPool(threads: 2)
        do throws(LedgerError) {
            let ledger = try await SQLiteLedger.open(readingOnly: path, pool: pool)
            return OpenedLedgers.keep(OpenedLedger(ledger: ledger, pool: pool, services: [], close: { await ledger.close() }))
        } catch {
            await pool.shutdown()
            throw CommandError(error)
        }
    }

    /// A blocking pool of `threads` for a ledger's work; a one-shot command's task runs on it
    /// from now on (`CommandExecutor`: its ledger calls run on the thread the task is on).
    static func blockingPool(threads: Int) throws(CommandError) -> BlockingPool {
        do {
            let pool = try BlockingPool(threads: threads, name: "ledger")
            CommandExecutor.current?.adopt(pool)
            return pool
        } catch {
            throw CommandError(.software, error.description)
        }
    }
}

/// A ledger as a command opened it: every port, the blocking pool its work runs on, and the
/// services that stop its writes in order when `serve` stops.
struct OpenedLedger: Sendable {
    let ledger: any Ledger
    let pool: BlockingPool
    let services: [any Service]
    /// Lets its writes commit and ends its own threads (SQLite's writer and checkpointer).
    let close: @Sendable () async -> Void
}

/// Every ledger this process opened, closed before it exits (`main.swift`): the writes under
/// way commit, and every thread that held a connection has ended, so the connections close
/// with the ledger. SQLite merges its write-ahead log into the file and removes it (and the
/// shared-memory file) only at its last connection's close: a command that exited with one
/// still open (a pool thread not yet done with a read's closure) left both behind, and a
/// `purge --dry-run` changed the files it promises to leave alone.
enum OpenedLedgers {
    private static let opened = Mutex<[OpenedLedger]>([])

    /// Keeps `ledger` to close at exit; returns it.
    static func keep(_ ledger: OpenedLedger) -> OpenedLedger {
        opened.withLock { $0.append(ledger) }
        return ledger
    }

    /// Closes every ledger opened so far, newest first, and lets go of them (their connections
    /// close as the last reference goes, here, once their threads have ended).
    static func closeAll() async {
        let ledgers = opened.withLock { opened in
            defer { opened = [] }
            return opened
        }
        for ledger in ledgers.reversed() {
            await ledger.close()
            await ledger.pool.shutdown()
        }
    }
}

/// The PostgreSQL ledger's part of `serve`'s stop: the writes nobody waits for (refused scans)
/// end before the process does.
struct PostgresWrites: Service {
    let name = "ledger"
    let ledger: PostgresLedger

    func run() async throws {
        try? await gracefulShutdown()
        await ledger.finishWrites()
    }
}
