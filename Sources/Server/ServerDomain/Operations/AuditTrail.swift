import SharedDomain

/// The rule every operator action keeps, in one place: **an action and its audit entry are
/// one**. An action that changes the log does its work and appends its entry in one
/// transaction (`change`): both are committed, or neither is. An action that hands personal
/// data out commits its entry before the first row leaves (`record`, then the rows): on a
/// ledger that cannot take the entry (a full disk) nothing leaves. Each action writes exactly
/// one entry; the action types (`VisitorLogExport`, `EvacuationRoll`, `OverlapsLookup`,
/// `Erasure`, `StaffCheckIn`, `StaffCheckOut`, `AccountChanges`, `LogPurge`, `ConsoleSignIn`,
/// `LedgerImport`) are the only callers, and the console and the commands call those. No port
/// appends an entry outside a transaction: this is the only way one is written.
public struct AuditTrail: Sendable {
    /// The transactions the entries go in.
    public let ledger: any LedgerTransactions
    /// Who acts.
    public let actor: Operator
    /// Whose now the entries are written at.
    public let clock: any WallClock

    /// Actions of `actor` on `ledger`, at `clock`'s times.
    public init(ledger: any LedgerTransactions, actor: Operator, clock: any WallClock) {
        self.ledger = ledger
        self.actor = actor
        self.clock = clock
    }

    /// The entry `note` makes for this trail's operator at `time`.
    public func entry(_ note: AuditNote, at time: WallTime) -> AuditEntry {
        AuditEntry(time: time, actor: actor.name, action: note.action, subject: note.subject, detail: note.detail, rows: note.rows,
                   source: actor.source)
    }

    /// A change to the log: runs `work` and appends the entry `note` makes of its result, in
    /// one transaction, and returns both once committed. `note` returns nil when the work found
    /// nothing to do (an account of that name does not exist): no entry then, and the work must
    /// have changed nothing. When the entry cannot be written, the work is undone and the
    /// failure thrown: the action did not happen.
    public func change<T: Sendable>(at time: WallTime? = nil, _ work: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T,
                                    note: @escaping @Sendable (T) -> AuditNote?) async throws(LedgerError) -> (value: T, entry: AuditEntry?) {
        let moment = time ?? clock.now()
        let trail = self
        return try await ledger.transaction { transaction throws(LedgerError) in
            let value = try work(transaction)
            guard let note = note(value) else { return (value, nil) }
            return (value, try transaction.appendAudit(trail.entry(note, at: moment)))
        }
    }

    /// The entry of a read, committed (in a transaction of its own, as a change's): call it
    /// after reading and before the first row leaves. When it throws, hand nothing out.
    @discardableResult
    public func record(_ note: AuditNote, at time: WallTime? = nil) async throws(LedgerError) -> AuditEntry {
        let entry = entry(note, at: time ?? clock.now())
        return try await ledger.transaction { transaction throws(LedgerError) in try transaction.appendAudit(entry) }
    }
}

/// What an audit entry says of an action, before the trail adds who, when and from where.
public struct AuditNote: Hashable, Sendable {
    public var action: AuditAction
    /// What it was done to (`check-in 4817325`, `account bob`), if anything.
    public var subject: String?
    /// How: a filter, a format, a reason.
    public var detail: String?
    /// How many rows it read, wrote or erased.
    public var rows: Int?

    /// A note of these fields.
    public init(_ action: AuditAction, subject: String? = nil, detail: String? = nil, rows: Int? = nil) {
        self.action = action
        self.subject = subject
        self.detail = detail
        self.rows = rows
    }
}
