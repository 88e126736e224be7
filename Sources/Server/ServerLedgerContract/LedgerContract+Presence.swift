import ServerDomain
import SharedDomain
import Synchronization

extension LedgerContract {
    /// Every open visit (of `venue`), read a page of two at a time.
    static func open(_ ledger: any Ledger, _ venue: VenueID? = nil) async throws(ContractFailure) -> [CheckIn] {
        var rows: [CheckIn] = []
        try await call("openVisits") { () async throws(LedgerError) in
            try await ledger.eachOpenVisit(venue: venue, pageSize: 2) { visit throws(LedgerError) in
                rows.append(visit)
                return true
            }
        }
        return rows
    }

    static func inside(_ ledger: any Ledger, _ venue: VenueID = hall, since: WallTime? = nil) async throws(ContractFailure) -> Int {
        try await call("occupancy") { () async throws(LedgerError) in try await ledger.occupancy(venue: venue, openSince: since) }[venue] ?? 0
    }

    static func admit(_ ledger: any Ledger, _ entry: NewCheckIn, capacity: Int?, duplicate: Int64 = 3600) async throws(ContractFailure) -> Admission {
        try await call("record") { () async throws(LedgerError) in try await ledger.record(entry, rules: AdmissionRules(duplicateSeconds: duplicate, capacity: capacity)) }
    }

    static func out(_ ledger: any Ledger, _ target: CheckOutTarget, at seconds: Int64, _ kind: ExitKind = .staff) async throws(ContractFailure) -> CheckOutReport {
        try await call("checkOut") { () async throws(LedgerError) in try await ledger.checkOut(CheckOutRequest(target, at: at(seconds), kind: kind)) }
    }

    static func device(_ index: Int) -> DeviceID { DeviceID("device-\(index)")! }

    /// Presence (issue 32): exits, occupancy, capacity, overlaps.
    static let presenceCases: [Case] = [
        Case(description: "an exit ends a visit once; the device's next scan starts a new visit") { ledger async throws(ContractFailure) in
            guard case .admitted(.recorded(let visit)) = try await admit(ledger, scan(phone, at: 0), capacity: nil) else {
                throw ContractFailure("the first check-in is recorded", line: #line)
            }
            let one = try await inside(ledger), openIDs = try await open(ledger).map(\.id)
            try expect(one == 1 && openIDs == [visit.id], "one visit open")
            let first = try await out(ledger, .device(phone, venue: hall), at: 600, .kiosk)
            try expect(first.closed == 1 && first.visit?.exit == VisitExit(time: at(600), kind: .kiosk),
                       "the exit kiosk ends the device's visit: \(first)")
            let second = try await out(ledger, .checkIn(visit.id), at: 700, .receipt)
            try expect(second.closed == 0 && second.visit?.exit == VisitExit(time: at(600), kind: .kiosk), "a second exit changes nothing: \(second)")
            let none = try await inside(ledger), nobody = try await open(ledger)
            try expect(none == 0 && nobody.isEmpty, "nobody inside")
            try expect(try await all(ledger).first?.exit?.kind == .kiosk, "the export carries the exit")
            guard case .admitted(.recorded(let again)) = try await admit(ledger, scan(phone, at: 800), capacity: nil), again.id != visit.id else {
                throw ContractFailure("within the duplicate time, a device that left starts a new visit", line: #line)
            }
            guard case .admitted(.duplicate(of: let same)) = try await admit(ledger, scan(phone, at: 900), capacity: nil), same.id == again.id else {
                throw ContractFailure("while the new visit is open, duplicates still apply", line: #line)
            }
            try expect(try await out(ledger, .checkIn(987_654), at: 900).visit == nil, "an unknown id ends nothing")
        },
        Case(description: "open visits page by time, then order of recording, each once: of one venue and of every venue, visits at one time included") {
            ledger async throws(ContractFailure) in
            // Three at each of two moments, alternating venues: pages of two split each moment.
            var recorded: [CheckIn] = []
            for (index, seconds) in [0, 0, 0, 5, 5, 5, 9].enumerated() {
                guard case .admitted(.recorded(let visit)) = try await admit(ledger, scan(device(index), index % 2 == 0 ? hall : cafe, at: Int64(seconds)),
                                                                             capacity: nil) else {
                    throw ContractFailure("check-in \(index) is recorded", line: #line)
                }
                recorded.append(visit)
            }
            _ = try await out(ledger, .checkIn(recorded[2].id), at: 20)
            let open = recorded.filter { $0.id != recorded[2].id }.map(\.id)
            let atHall = recorded.filter { $0.venue == hall && $0.id != recorded[2].id }.map(\.id)
            let every = try await Self.open(ledger).map(\.id), hallOnly = try await Self.open(ledger, hall).map(\.id)
            try expect(every == open, "every venue's open visits, in order: \(every) against \(open)")
            try expect(hallOnly == atHall, "one venue's open visits, in order: \(hallOnly) against \(atHall)")
            // Folded where the ledger reads them (`eachOpenPage`): the same visits, page by page.
            let folded = try await call("openVisits(into:)") { () async throws(LedgerError) in
                try await ledger.eachOpenPage(venue: hall, pageSize: 2, into: [Int64](), { ids, visit in ids.append(visit.id) }) { _ throws(LedgerError) in true }
            }
            try expect(folded == atHall, "folded pages hold the same visits: \(folded)")
        },
        Case(description: "capacity: a full venue records nothing; a duplicate inside still gets its receipt") { ledger async throws(ContractFailure) in
            for index in 0..<2 {
                guard case .admitted(.recorded) = try await admit(ledger, scan(device(index), at: Int64(index)), capacity: 2) else {
                    throw ContractFailure("check-in \(index) fits", line: #line)
                }
            }
            try expect(try await admit(ledger, scan(device(2), at: 5), capacity: 2) == .full(inside: 2), "the third is refused as full")
            guard case .admitted(.duplicate) = try await admit(ledger, scan(device(0), at: 6), capacity: 2) else {
                throw ContractFailure("a device inside scanning again is its earlier visit", line: #line)
            }
            guard case .admitted(.recorded) = try await admit(ledger, scan(device(9), cafe, at: 6), capacity: 2) else {
                throw ContractFailure("another venue has its own count", line: #line)
            }
            try expect(try await all(ledger).count == 3, "the refusal wrote nothing")
            _ = try await out(ledger, .device(device(0), venue: hall), at: 10, .kiosk)
            guard case .admitted(.recorded) = try await admit(ledger, scan(device(2), at: 11), capacity: 2) else {
                throw ContractFailure("after one left, the third gets in", line: #line)
            }
            try expect(try await inside(ledger) == 2, "two inside")
            let staff = try await admit(ledger, scan(nil, at: 12, method: .staff, operatorName: "root"), capacity: nil)
            guard case .admitted(.recorded) = staff else { throw ContractFailure("staff may check in over capacity", line: #line) }
            let three = try await inside(ledger), two = try await inside(ledger, since: at(5))
            try expect(three == 3 && two == 2, "openSince leaves out earlier entries")
        },
        Case(description: "capacity holds under concurrent check-ins") { ledger async throws(ContractFailure) in
            let all = await withTaskGroup(of: Admission?.self) { group in
                for index in 0..<40 {
                    group.addTask { try? await ledger.record(scan(device(index), at: Int64(index % 3)), rules: AdmissionRules(duplicateSeconds: 60, capacity: 7)) }
                }
                var all: [Admission] = []
                for await admission in group { if let admission { all.append(admission) } }
                return all
            }
            try expect(all.count == 40, "every call answered")
            try expect(all.filter { if case .admitted(.recorded) = $0 { true } else { false } }.count == 7, "exactly the capacity was admitted")
            try expect(try await inside(ledger) == 7, "seven inside")
        },
        Case(description: "checkout of a venue, and of overstayed visits at entry plus the stay") { ledger async throws(ContractFailure) in
            for index in 0..<4 { _ = try await admit(ledger, scan(device(index), at: Int64(index) * 1000), capacity: nil) }
            _ = try await admit(ledger, scan(device(5), cafe, at: 0), capacity: nil)
            let overstayed = try await out(ledger, .overstayed(hall, maxStaySeconds: 2000), at: 3000, .automatic)
            try expect(overstayed.closed == 2, "visits entered at 0 and 1000 are over 2000 s at 3000: \(overstayed)")
            let rows = try await all(ledger, CheckInQuery(venue: hall))
            try expect(rows[0].exit == VisitExit(time: at(2000), kind: .automatic) && rows[1].exit == VisitExit(time: at(3000), kind: .automatic),
                       "each ends at its entry plus the stay: \(rows.map(\.exit))")
            try expect(rows[2].exit == nil, "the one entered at 2000 is still inside")
            let venue = try await out(ledger, .venue(hall), at: 4000, .staff)
            let hallInside = try await inside(ledger), cafeInside = try await inside(ledger, cafe)
            try expect(venue.closed == 2 && hallInside == 0 && cafeInside == 1, "the venue's others end; the cafe's stays")
            guard case .admitted(.recorded) = try await admit(ledger, scan(device(3), at: 4001), capacity: nil) else {
                throw ContractFailure("a device ended by checkout --all starts a new visit", line: #line)
            }
        },
        Case(description: "visits meeting an interval, against brute force") { ledger async throws(ContractFailure) in
            var generator = SplitMix(seed: 32)
            for index in 0..<300 {
                let entered = Int64(generator.next() % 20_000)
                guard case .admitted(.recorded(let visit)) = try await admit(ledger, scan(device(index), index % 3 == 0 ? cafe : hall, at: entered), capacity: nil) else {
                    throw ContractFailure("recorded", line: #line)
                }
                if generator.next() % 4 != 0 {
                    _ = try await out(ledger, .checkIn(visit.id), at: entered + Int64(generator.next() % 5000), .kiosk)
                }
            }
            let everything = try await all(ledger)
            for probe in 0..<20 {
                let from = at(Int64(generator.next() % 20_000)), until = WallTime(milliseconds: from.milliseconds + Int64(probe) * 100_000)
                let query = MeetingQuery(venue: hall, from: from, until: until, now: at(21_000), longestStaySeconds: 4000)
                let found = try await call("visits") { () async throws(LedgerError) in try await ledger.visits(meeting: query) }
                let expected = everything.filter(query.matches)
                try expect(found.map(\.id) == expected.map(\.id), "probe \(probe): \(found.count) found, \(expected.count) expected")
            }
        },
    ]
}

/// A small deterministic generator (SplitMix64): the same visits on every engine.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
