import CSQLite
import ServerDomain
import SharedAsync
import Synchronization

/// Copies the write-ahead log back into the database on a thread and connection of its own, so
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
    /// The checkpointer's own thread (a pool of one): a checkpoint copies and syncs megabytes,
    /// which must occupy neither the writer nor a thread the readers need.
    private let thread: BlockingPool
    /// Whether a checkpoint is under way or queued (requests meanwhile are one).
    private let busy = Mutex(false)

    /// A connection of its own to `file`, syncing as `durability` says (a checkpoint syncs the
    /// database file unless synchronous is OFF).
    convenience init(file: SQLiteDatabaseFile, durability: SQLiteDurability) throws(LedgerError) {
        let connection = try SQLiteConnection(file: file, create: false)
        // It also vacuums after purges (`SQLiteLedger.compact`): freed pages are zeroed.
        try connection.execute("PRAGMA synchronous = \(durability.rawValue.uppercased()); PRAGMA secure_delete = ON")
        try self.init(readOnly: connection)
    }

    /// A checkpointer on `connection` (a ledger opened read-only: its checkpoints fail, harmlessly).
    init(readOnly connection: SQLiteConnection) throws(LedgerError) {
        self.connection = connection
        do {
            thread = try BlockingPool(threads: 1, name: "ledger-checkpoint")
        } catch {
            throw LedgerError(.failed, "cannot start the ledger's checkpointer: \(error)")
        }
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
        // Closed: the last connection's close checkpoints.
        if !thread.execute({ self.checkpoint() }) { busy.withLock { $0 = false } }
    }

    /// One PASSIVE checkpoint, on this thread. A busy database (a purge's VACUUM) only
    /// postpones it to the next request.
    private func checkpoint() {
        sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        busy.withLock { $0 = false }
    }

    /// Runs `body` with this thread's connection once no checkpoint is under way (in turn with
    /// them), and returns when it did. Nothing when the checkpointer has stopped.
    func withConnection(_ body: @escaping @Sendable (SQLiteConnection) -> Void) async {
        _ = try? await thread.run { [connection] () throws(Never) in body(connection) }
    }

    /// Lets a checkpoint under way finish, then ends the thread.
    func stop() async {
        await thread.shutdown()
    }
}
