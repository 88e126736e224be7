import SharedDomain

/// Port: the visitor log. SQLite (embedded) and PostgreSQL (many servers) implement it, and
/// both pass `LedgerContract`. Every method is safe to call from any thread; a method that
/// returns (or completes) has committed, and reads see only committed rows.
///
/// One async style (docs/DEVELOPMENT.md): what a visitor's request waits for, the check-in's
/// commit, answers through a completion, so libmicrohttpd's few threads serve other connections
/// meanwhile and the ledger commits many waiting check-ins together. Reads and the operators'
/// writes (purge, erase) are short or run from commands, and block. A caller that must wait for
/// a completion uses the one bridge, `Rendezvous` (SharedSystem).
public protocol CheckInLedger: Sendable {
    /// Records `checkIn`, unless its device already checked in at its venue less than
    /// `duplicateSeconds` before `checkIn.time`: then nothing is written and the earlier
    /// check-in is handed back. The decision and the write are one atomic step in the database
    /// (a unique key on venue and device and a conditional upsert, `INSERT … ON CONFLICT … DO
    /// UPDATE … WHERE`), so two servers handling one device at once record one check-in. A
    /// check-in without a device is always recorded. `completion` runs exactly once, after the
    /// commit, on any thread (possibly before this returns).
    ///
    /// With a capacity in `rules`, the check-in is recorded only while fewer visits are open at
    /// its venue (entered since `rules.openSince`): otherwise nothing is written and the answer
    /// is `.full`. A device already inside within the duplicate time gets its earlier check-in
    /// even then. The count and the insert are one step in the database (the SQLite writer's
    /// transaction; a per-venue advisory lock in PostgreSQL's), so servers never admit one too many.
    func record(_ checkIn: NewCheckIn, rules: AdmissionRules,
                completion: @escaping @Sendable (Result<Admission, LedgerError>) -> Void)

    /// Records the exits `request` selects, each at most once: a visit already out is left as
    /// it was (the report says so), and its device's duplicate key is released, so the device's
    /// next scan starts a new visit. Completes after the commit, on any thread.
    func checkOut(_ request: CheckOutRequest, completion: @escaping @Sendable (Result<CheckOutReport, LedgerError>) -> Void)

    /// Every open visit (of `venue`, or of every venue), oldest first, handed to `body` one at a
    /// time; `body` returns false to stop. A read: works on a ledger opened read-only.
    func openVisits(venue: VenueID?, _ body: (CheckIn) -> Bool) throws(LedgerError)

    /// Open visits per venue (of `venue` or every venue), counting only those entered at or
    /// after `openSince` when given; venues with none are absent. Counted from the rows (an
    /// index of open visits), so it equals the open visits after any crash.
    func occupancy(venue: VenueID?, openSince: WallTime?) throws(LedgerError) -> [VenueID: Int]

    /// The visits `query` selects (at one venue, meeting an interval), oldest first.
    func visits(meeting query: MeetingQuery) throws(LedgerError) -> [CheckIn]

    /// Keeps a refused scan (for the refusal log's shorter retention).
    func recordRefusal(_ refusal: Refusal) throws(LedgerError)

    /// Keeps a refused scan without waiting for it: a flood of refusals must not hold the
    /// server's threads. Nothing is promised to anyone about a refusal, so a failure is dropped.
    /// The default calls the blocking one.
    func recordRefusalLater(_ refusal: Refusal)

    /// The check-in with id `id`, if it is (still) recorded.
    func find(id: Int64) throws(LedgerError) -> CheckIn?

    /// Every check-in `query` selects, oldest first (by time, then id), handed to `body` one
    /// at a time while the rows are read: constant memory for any number of rows. `body`
    /// returns false to stop early.
    func export(_ query: CheckInQuery, _ body: (CheckIn) -> Bool) throws(LedgerError)

    /// How many check-ins `query` selects (its `limit` ignored).
    func count(_ query: CheckInQuery) throws(LedgerError) -> Int

    /// Deletes check-ins recorded before `request.checkInsBefore` (with their device ids and
    /// visitor fields, and the duplicate keys that name their devices) and refusals before
    /// `request.refusalsBefore`, for real: the space is overwritten and handed back, not flagged.
    /// With `keepsCounts`, the deleted check-ins' counts per venue and day are added to the kept
    /// counts in the same transaction. With `dryRun`, counts what would go and changes nothing.
    func purge(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport

    /// The check-ins `query` selects (its `limit` ignored), counted per venue and quarter hour
    /// (`CheckInTally`), in no particular order: what counts by hour, day and venue add up.
    func tally(_ query: CheckInQuery) throws(LedgerError) -> [CheckInTally]

    /// The daily counts purges kept (of `venue`, or of every venue), in no particular order.
    func keptCounts(venue: VenueID?) throws(LedgerError) -> [DailyCount]

    /// The check-ins `erase(subject)` would delete now, oldest first: what an operator is shown
    /// before erasing (a visitor's check-ins within the retention: few).
    func checkIns(of subject: ErasureSubject) throws(LedgerError) -> [CheckIn]

    /// Deletes the check-ins of `subject` (and the duplicate keys they hold), for real, as a
    /// purge does; returns how many.
    func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int

    /// The devices with check-ins whose id begins with `prefix`, at most `limit` of them, in
    /// no particular order: how `erase --device` finds the device an operator copied from the
    /// table (`DeviceID.shown`), and sees that a prefix is ambiguous.
    func devices(prefixed prefix: String, limit: Int) throws(LedgerError) -> [DeviceID]

    /// Returns once every write handed to the ledger so far has committed (or failed) and its
    /// completion has run: the ledger's part of a graceful stop, after the listener's.
    func finishWrites()

    /// Appends `entry` to the audit log (its id is the log's); returns it with its id. The log
    /// is append-only: nothing but `purgeAudit` ever removes an entry, and nothing changes one.
    @discardableResult
    func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry

    /// The audit entries `query` selects, newest first (by id), handed to `body` one at a time;
    /// `body` returns false to stop early.
    func audit(_ query: AuditQuery, _ body: (AuditEntry) -> Bool) throws(LedgerError)

    /// Deletes the audit entries before `cutoff` (the audit log's own retention); returns how many.
    func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int

    /// Runs `body` in a transaction of its own and returns its value once that has committed:
    /// everything `body` did through the transaction is committed together, or, when `body`
    /// throws or the commit fails, nothing is. How operator actions write their work and their
    /// audit entry as one (`AuditTrail`). SQLite runs it on its writer's thread alone, never
    /// batched with visitors' check-ins (its failure fails none of theirs); PostgreSQL on one
    /// connection; the in-memory ledger under its lock, so `body` must call only the
    /// transaction, never the ledger.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) throws(LedgerError) -> T
}

extension CheckInLedger {
    /// Records `checkIn` with duplicates decided by `duplicateSeconds` and no capacity.
    public func record(_ checkIn: NewCheckIn, duplicateSeconds: Int64,
                       completion: @escaping @Sendable (Result<RecordOutcome, LedgerError>) -> Void) {
        record(checkIn, rules: AdmissionRules(duplicateSeconds: duplicateSeconds)) { result in
            completion(result.flatMap { admission in
                switch admission {
                case .admitted(let outcome): .success(outcome)
                case .full: .failure(LedgerError(.failed, "a check-in without a capacity was refused as full"))
                }
            })
        }
    }

    /// A ledger whose writes all complete before they return has nothing to finish.
    public func finishWrites() {}

    public func recordRefusalLater(_ refusal: Refusal) {
        try? recordRefusal(refusal)
    }

    /// Deletes check-ins before `checkInsBefore` and refusals before `refusalsBefore`, keeping no
    /// counts (`purge(_:)` with a plain request).
    public func purge(checkInsBefore: WallTime, refusalsBefore: WallTime, dryRun: Bool) throws(LedgerError) -> PurgeReport {
        try purge(PurgeRequest(checkInsBefore: checkInsBefore, refusalsBefore: refusalsBefore, dryRun: dryRun))
    }
}

/// What `record` did.
public enum RecordOutcome: Hashable, Sendable {
    /// A new check-in, committed.
    case recorded(CheckIn)
    /// The device's earlier check-in at the venue, within the duplicate time: nothing written.
    case duplicate(of: CheckIn)

    /// The check-in the visitor's receipt shows: the new one or the earlier one.
    public var checkIn: CheckIn {
        switch self {
        case .recorded(let checkIn), .duplicate(of: let checkIn): checkIn
        }
    }
}

/// What `record(_:rules:)` did: admitted (recorded, or a duplicate), or refused as full.
public enum Admission: Hashable, Sendable {
    /// Recorded, or the device's earlier check-in within the duplicate time.
    case admitted(RecordOutcome)
    /// The venue holds its capacity (`inside` open visits): nothing written.
    case full(inside: Int)
}

/// Which check-ins a listing, an export or a count covers. Every bound is optional.
public struct CheckInQuery: Hashable, Sendable {
    /// Only this venue's.
    public var venue: VenueID?
    /// Only those at or after this moment.
    public var from: WallTime?
    /// Only those before this moment.
    public var until: WallTime?
    /// Only this device's.
    public var device: DeviceID?
    /// At most this many (the oldest first).
    public var limit: Int?

    /// A query with these bounds; `CheckInQuery()` selects everything.
    public init(venue: VenueID? = nil, from: WallTime? = nil, until: WallTime? = nil, device: DeviceID? = nil, limit: Int? = nil) {
        self.venue = venue
        self.from = from
        self.until = until
        self.device = device
        self.limit = limit
    }

    /// Whether `checkIn` is selected (ignoring `limit`): the rule every ledger follows.
    public func matches(_ checkIn: CheckIn) -> Bool {
        (venue == nil || checkIn.venue == venue) && (from.map { checkIn.time >= $0 } ?? true)
            && (until.map { checkIn.time < $0 } ?? true) && (device == nil || checkIn.device == device)
    }
}

/// What a purge deleted (or, dry, would delete).
public struct PurgeReport: Hashable, Sendable {
    /// Check-ins deleted.
    public let checkIns: Int
    /// Refusals deleted.
    public let refusals: Int

    /// A report of these counts.
    public init(checkIns: Int, refusals: Int) {
        self.checkIns = checkIns
        self.refusals = refusals
    }
}

/// Whose check-ins an erasure deletes.
public enum ErasureSubject: Hashable, Sendable {
    /// Every check-in of one device.
    case device(DeviceID)
    /// Every check-in whose visitor gave this phone number (digits, as `Visitor` keeps them).
    case phone(String)
    /// The one check-in with this id (the id shown, as `find(id:)` takes it); if it opened its
    /// device's duplicate time, that key goes with it.
    case checkIn(Int64)
}
