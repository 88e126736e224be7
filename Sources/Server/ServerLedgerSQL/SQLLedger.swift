import ServerDomain
import SharedDomain

/// The ledger in SQL, written once for SQLite and PostgreSQL: which statements run in what
/// order, and how their rows become check-ins, visits, entries and accounts. Each engine hands
/// it a session (`SQLSession`: a connection inside the transaction the engine opened) and
/// decides only how sessions are had: SQLite's one writer with group commit and its read
/// connections, PostgreSQL's pool. So a query both engines run is written once, and a rule of
/// the log (duplicates, capacity, exits, erasure) has one statement per step, rendered per
/// dialect (`LedgerSchema`, `SQLStatement`).
public struct SQLLedger: Sendable {
    /// The ids check-ins show, under the ledger's key.
    public let ids: CheckInIDCipher

    /// The SQL of a ledger whose check-ins show the ids `ids` gives their rows.
    public init(ids: CheckInIDCipher) {
        self.ids = ids
    }

    /// Records `checkIn` by `rules` (`CheckInLedger.record`). With a capacity, the open visits
    /// are counted first (the partial index of open visits: about the capacity's rows) and the
    /// count and the insert are one step: SQLite's one writer, PostgreSQL's venue lock, so the
    /// session must be inside a transaction then. Whether a full venue still answers a device
    /// its earlier check-in is `AdmissionRules`' decision; the duplicate time itself is decided
    /// in the database by the claim (`LedgerSchema.claimPresence`).
    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules, on session: any SQLSession) throws(LedgerError) -> Admission {
        if rules.capacity != nil {
            if session.dialect.locksVenues { try session.run(LedgerStatements.lockVenue, [.text(checkIn.venue.rawValue)]) }
            let inside = try session.count(LedgerStatements.countOpenAtVenue, [.text(checkIn.venue.rawValue),
                                                                                .integer(rules.openSince?.milliseconds ?? Int64.min)])
            // The earlier check-in is read only for a full venue: the claim decides the rest.
            if rules.refusal(inside: inside, at: checkIn.time, earlier: nil) != nil {
                let earlier = try checkIn.device.flatMap { device throws(LedgerError) in try self.earlier(venue: checkIn.venue, device: device, on: session) }
                if let refused = rules.refusal(inside: inside, at: checkIn.time, earlier: earlier) { return refused }
            }
        }
        let (outcome, heard) = try session.retryingTakenRowID { () throws(LedgerError) in
            try claimAndInsert(checkIn, duplicateSeconds: rules.duplicateSeconds, on: session)
        }
        // The webhooks' outbox, in the check-in's transaction (issue 40), when the insert saw an
        // endpoint: with none, the statement would read an empty table and write nothing.
        if let row = heard {
            try enqueueCheckIn(checkIn, row: row, on: session)
        }
        return .admitted(outcome)
    }

    /// The claim of the device's duplicate key and the insert, or the earlier check-in that
    /// holds the key. A check-in without a device is always inserted. `heard`: the new row's id
    /// when the ledger has a webhook endpoint (the insert's `anyWebhookEndpoint`), else nil.
    private func claimAndInsert(_ checkIn: NewCheckIn, duplicateSeconds: Int64,
                                on session: any SQLSession) throws(LedgerError) -> (outcome: RecordOutcome, heard: Int64?) {
        guard let device = checkIn.device else { return try insert(checkIn, on: session) }
        let duplicate = duplicateSeconds.multipliedReportingOverflow(by: 1000).partialValue
        let claim: [SQLValue] = [.text(checkIn.venue.rawValue), .text(device.rawValue), .integer(checkIn.time.milliseconds), .integer(duplicate)]
        if session.dialect.modifiesInWith {
            let inserted = try session.first(LedgerStatements.claimAndInsert, claim + [
                .text(checkIn.method.rawValue), .integer(checkIn.windowAge.map(Int64.init)), .text(checkIn.visitor?.name),
                .text(checkIn.visitor?.phone), .text(checkIn.operatorName),
            ], Self.insertedRow)
            if let inserted { return try recorded(checkIn, inserted, on: session) }
        } else if try session.first(LedgerStatements.claimPresence, claim, { _ in true }) != nil {
            return try insert(checkIn, on: session)
        }
        // A duplicate. PostgreSQL: the claim's row was locked until the check-in holding it
        // committed, so this statement (a new snapshot) sees that check-in.
        guard let earlier = try earlier(venue: checkIn.venue, device: device, on: session) else {
            throw LedgerError(.corrupt, "\(session.target): a duplicate key names no check-in")
        }
        return (.duplicate(of: earlier), nil)
    }

    private func insert(_ checkIn: NewCheckIn, on session: any SQLSession) throws(LedgerError) -> (outcome: RecordOutcome, heard: Int64?) {
        let inserted = try session.first(LedgerStatements.insertCheckIn, LedgerRows.values(checkIn), Self.insertedRow)
        return try recorded(checkIn, inserted ?? (nil, false), on: session)
    }

    /// An insert's row: its id and whether the ledger has a webhook endpoint.
    private static func insertedRow(_ row: any SQLRow) throws(LedgerError) -> (row: Int64?, endpoints: Bool) {
        (try row.integer(0), try row.integer(1) == 1)
    }

    /// The recorded check-in of the row an insert returned (its shown id enciphered from the
    /// row id, which the outbox's statement takes as it is: never deciphered back).
    private func recorded(_ checkIn: NewCheckIn, _ inserted: (row: Int64?, endpoints: Bool),
                          on session: any SQLSession) throws(LedgerError) -> (outcome: RecordOutcome, heard: Int64?) {
        guard let row = inserted.row else { throw LedgerError(.failed, "\(session.target): the insert returned no id") }
        return (.recorded(CheckIn(id: try ids.shownID(row: row), entry: checkIn)), inserted.endpoints ? row : nil)
    }

    /// The check-in holding the duplicate key of `venue` and `device`, if any.
    func earlier(venue: VenueID, device: DeviceID, on session: any SQLSession) throws(LedgerError) -> CheckIn? {
        try session.first(LedgerStatements.earlierCheckIn, [.text(venue.rawValue), .text(device.rawValue)]) { row throws(LedgerError) in
            try LedgerRows.checkIn(row, ids: ids)
        }
    }

    /// The check-in whose id shows `id`, if it is (still) recorded.
    public func find(id: Int64, on session: any SQLSession) throws(LedgerError) -> CheckIn? {
        guard let row = ids.rowID(shown: id) else { return nil }
        return try find(row: row, on: session)
    }

    func find(row: Int64, on session: any SQLSession) throws(LedgerError) -> CheckIn? {
        try session.first(LedgerStatements.checkInByID, [.integer(row)]) { row throws(LedgerError) in try LedgerRows.checkIn(row, ids: ids) }
    }

    /// Keeps a refused scan.
    public func recordRefusal(_ refusal: Refusal, on session: any SQLSession) throws(LedgerError) {
        try session.run(LedgerStatements.insertRefusal, [.text(refusal.venue?.rawValue), .integer(refusal.time.milliseconds),
                                                         .text(refusal.reason.rawValue), .text(refusal.method.rawValue)])
        try enqueueRefusal(refusal, on: session)
    }

    /// Refusals at or after `since`, counted per venue and reason.
    public func refusalCounts(since: WallTime, on session: any SQLSession) throws(LedgerError) -> [RefusalCount] {
        var counts: [RefusalCount] = []
        try session.query(LedgerStatements.countRefusals, [.integer(since.milliseconds)]) { row throws(LedgerError) in
            if let reason = row.text(1).flatMap(RefusalReason.init(rawValue:)), let count = try row.integer(2) {
                counts.append(RefusalCount(venue: row.text(0).flatMap { try? VenueID($0) }, reason: reason, count: Int(count)))
            }
            return true
        }
        return counts
    }
}

extension SQLDialect {
    /// Whether several servers write to one database (PostgreSQL): a venue's admissions and
    /// automatic exits then take its advisory lock in turn. SQLite has one writer.
    public var locksVenues: Bool { self == .postgresql }

    /// Whether a WITH may insert or update (PostgreSQL): a claim and its insert are then one
    /// statement, one round trip.
    public var modifiesInWith: Bool { self == .postgresql }
}
