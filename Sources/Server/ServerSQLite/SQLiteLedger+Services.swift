import SharedAsync

extension SQLiteLedger {
    /// The ledger's threads as services of `serve`, in the order they start (stopped in the
    /// reverse): the writer first (the last to stop: the writes the listeners let finish, and
    /// the refused scans, commit before the process exits), then the checkpointer.
    public var services: [any Service] {
        [SQLiteWriterService(ledger: self), SQLiteCheckpointService(ledger: self)]
    }
}

/// The writer's thread as a service: when asked to stop, lets the writes submitted so far
/// commit and ends the thread.
struct SQLiteWriterService: Service {
    let name = "ledger writer"
    let ledger: SQLiteLedger

    func run() async throws {
        try? await gracefulShutdown()
        await ledger.writer.close()
    }
}

/// The checkpointer's thread as a service: when asked to stop, lets a checkpoint under way end
/// and ends the thread (the last connection's close copies what is left of the log).
struct SQLiteCheckpointService: Service {
    let name = "ledger checkpointer"
    let ledger: SQLiteLedger

    func run() async throws {
        try? await gracefulShutdown()
        await ledger.checkpointer.stop()
    }
}
