import ServerDomain
import SharedDomain

/// The rules every `VisitFlowLog` keeps (the console's occupancy curve), as named cases each
/// engine's tests run on a fresh, empty ledger: memory, SQLite and PostgreSQL.
public enum VisitFlowContract {
    /// A ledger the cases can fill (check-ins and check-outs) and read the flow of.
    public typealias Ledger = any VisitLedger & VisitLog & VisitFlowLog

    /// One rule: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        /// What the rule says.
        public let description: String
        let check: @Sendable (Ledger) async throws(ContractFailure) -> Void

        /// Runs the rule on `ledger`, which must be empty.
        public func run(on ledger: Ledger) async throws(ContractFailure) {
            try await check(ledger)
        }
    }

    static let hall = LedgerContract.hall
    static let cafe = LedgerContract.cafe
    static func at(_ seconds: Int64) -> WallTime { LedgerContract.at(seconds) }

    /// Records a visit at `venue` entered at `entered` (seconds from the contract's start) and,
    /// when given, ended at `exited`.
    static func visit(_ ledger: Ledger, _ name: String, _ venue: VenueID = hall, entered: Int64, exited: Int64? = nil) async throws(ContractFailure) {
        let entry = NewCheckIn(venue: venue, time: at(entered), method: .qr, windowAge: 0, device: DeviceID(name), visitor: nil, operatorName: nil)
        let id = try await call("record") { () async throws(LedgerError) in try await ledger.record(entry, duplicateSeconds: 60).checkIn.id }
        if let exited {
            let report = try await call("check out") { () async throws(LedgerError) in
                try await ledger.checkOut(CheckOutRequest(.checkIn(id), at: at(exited), kind: .staff))
            }
            try expect(report.closed == 1, "the visit \(name) was ended")
        }
    }

    static func flow(_ ledger: Ledger, _ query: VisitFlowQuery) async throws(ContractFailure) -> Set<VisitFlow> {
        do throws(LedgerError) {
            return Set(try await ledger.visitFlow(query))
        } catch {
            throw ContractFailure("visitFlow failed: \(error.kind.rawValue): \(error.message)", line: #line)
        }
    }

    /// Every rule.
    public static let cases: [Case] = [
        Case(description: "visits are counted per venue, entry bucket and exit bucket from the origin, within the query's bounds") { ledger throws(ContractFailure) in
            // Origin an hour before the day's start (at 0), until 1,000 s after it, 5-minute buckets.
            let query = VisitFlowQuery(origin: at(-3600), since: at(0), until: at(1000), bucketMilliseconds: 300_000)
            try await visit(ledger, "at-origin", entered: -3600)                   // bucket 0, open
            try await visit(ledger, "before-origin", entered: -3601)               // left out: before the origin
            try await visit(ledger, "ended-before-since", entered: -1000, exited: -1)  // left out: ended before since
            try await visit(ledger, "ended-at-since", entered: -600, exited: 0)    // 3000/300 = 10, 3600/300 = 12
            try await visit(ledger, "inside-at-start", entered: -1000)             // 2600/300 = 8, open
            try await visit(ledger, "a", entered: 0, exited: 700)                  // 12, 4300/300 = 14
            try await visit(ledger, "b", entered: 200, exited: 800)                // 12, 14 (with a: 2)
            try await visit(ledger, "c", entered: 400)                             // 13, open
            try await visit(ledger, "cafe", cafe, entered: 10)                     // cafe 12, open
            try await visit(ledger, "at-until", entered: 1000)                     // left out: entered at until
            let expected: Set<VisitFlow> = [
                VisitFlow(venue: hall, entered: 0, exited: nil, count: 1), VisitFlow(venue: hall, entered: 10, exited: 12, count: 1),
                VisitFlow(venue: hall, entered: 8, exited: nil, count: 1), VisitFlow(venue: hall, entered: 12, exited: 14, count: 2),
                VisitFlow(venue: hall, entered: 13, exited: nil, count: 1), VisitFlow(venue: cafe, entered: 12, exited: nil, count: 1),
            ]
            let found = try await flow(ledger, query)
            try expect(found == expected, "the flow: \(found.sorted { ($0.venue.rawValue, $0.entered) < ($1.venue.rawValue, $1.entered) })")
            // The in-memory rule (`VisitFlowQuery.selects`) says the same of every visit.
            let every = try await call("check-ins") { () async throws(LedgerError) in try await ledger.checkIns(CheckInQuery(), after: nil) }
            let selected = every.filter(query.selects).count
            try expect(selected == found.reduce(0) { $0 + $1.count }, "the flow counts what `selects` selects: \(selected)")
        },
        Case(description: "an empty ledger, or a day with nothing in it, has no flow") { ledger throws(ContractFailure) in
            let query = VisitFlowQuery(origin: at(0), since: at(3600), until: at(7200), bucketMilliseconds: 300_000)
            try expect(try await flow(ledger, query).isEmpty, "an empty ledger")
            try await visit(ledger, "yesterday", entered: -86_400, exited: -80_000)
            try expect(try await flow(ledger, query).isEmpty, "a visit long before the origin")
        },
    ]
}
