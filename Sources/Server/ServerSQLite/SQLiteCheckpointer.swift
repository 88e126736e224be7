import CSQLite
import Dispatch
import ServerDomain
import Synchronization

/// Copies the write-ahead log back into the database on its own thread and connection, so
/// no check-in's commit waits for a checkpoint. SQLite's automatic checkpoint runs inside the
/// commit that crosses its threshold: every check-in waiting on that commit then waits for
/// megabytes to be copied and synced, which was the server's p99 (`make bench`: 19-34 ms with
/// it, under 10 ms without). A PASSIVE checkpoint needs no lock the writer holds, so the writer
/// goes on committing while this one copies.
final class SQLiteCheckpointer: Sendable {
    /// WAL pages after which a checkpoint is started (SQLite's own default is 1,000: fewer,
    /// larger checkpoints copy a page written many times once).
    static let threshold: Int32 = 4000
    /// WAL pages at which the writer stops to checkpoint itself: a bound on the log's size when
    /// this thread cannot keep up (or is kept out by long reads), never reached in `make bench`.
    static let hardLimit: Int32 = 65536

    private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "qrcheckin-server.ledger-checkpointer")
    /// Whether a checkpoint is under way or queued (requests meanwhile are one).
    private let busy = Mutex(false)

    /// A connection of its own to `file`, syncing as `durability` says (a checkpoint syncs the
    /// database file unless synchronous is OFF).
    init(file: SQLiteDatabaseFile, durability: SQLiteDurability) throws(LedgerError) {
        connection = try SQLiteConnection(file: file, create: false)
        // It also vacuums after purges (`SQLiteLedger.compact`): freed pages are zeroed.
        try connection.execute("PRAGMA synchronous = \(durability.rawValue.uppercased()); PRAGMA secure_delete = ON")
    }

    /// A checkpointer on `connection` (a ledger opened read-only: its checkpoints fail, harmlessly).
    init(readOnly connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Called on the writer's thread after each commit with the pages now in the log.
    func logGrew(to pages: Int32, writer: SQLiteConnection) {
        if pages >= Self.hardLimit {
            // The log is far behind: copy it all and start it again now, waiting for readers
            // (a pass of this thread under way makes it fail at once: tried again next commit).
            sqlite3_wal_checkpoint_v2(writer.handle, nil, SQLITE_CHECKPOINT_RESTART, nil, nil)
            return
        }
        guard pages >= Self.threshold else { return }
        let starts = busy.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard starts else { return }
        queue.async {
            // A busy database (a purge's VACUUM) only postpones it to the next request.
            sqlite3_wal_checkpoint_v2(self.connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            self.busy.withLock { $0 = false }
        }
    }

    /// Runs `body` with this thread's connection once no checkpoint is under way, and waits
    /// for it.
    func withConnection(_ body: (SQLiteConnection) -> Void) {
        queue.sync { body(connection) }
    }
}
