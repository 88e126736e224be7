import ServerDomain
import SharedDomain

/// What migration 13 (issue 38: the open visits' index by time and id) is checked on, on each
/// engine: open visits at two venues, four entered in each second (ties of time), some of them
/// closed, and what paging them gives once the engine's test has turned the ledger back to
/// version 12 and opened it again.
public enum OpenVisitsIndexFixture {
    /// The two venues.
    public static let hall = try! VenueID("HALL-1"), other = try! VenueID("HALL-2")

    /// Records 40 check-ins, four a second from 100 s, every third at `other`, then checks out
    /// `hall`'s entered before 101 s: 24 visits left open at `hall`, 14 at `other`.
    public static func fill(_ ledger: any Ledger) async throws(LedgerError) {
        for index in 0..<40 {
            _ = try await ledger.record(NewCheckIn(venue: index % 3 == 0 ? other : hall, time: WallTime(seconds: 100 + Int64(index / 4)),
                                                   method: .qr, windowAge: 0, device: DeviceID("d\(index)")), duplicateSeconds: 60)
        }
        _ = try await ledger.checkOut(CheckOutRequest(.enteredBefore(hall, cutoff: WallTime(seconds: 101)), at: WallTime(seconds: 200), kind: .staff))
    }

    /// For every venue (nil) and each venue: the ids of its open visits paged three at a time
    /// through `openVisits(venue:after:limit:)`, and the ids the log says are open there, in
    /// the log's order (time, then id).
    public static func pages(_ ledger: any Ledger) async throws(LedgerError) -> [(venue: VenueID?, paged: [Int64], expected: [Int64])] {
        let all = try await ledger.checkIns(CheckInQuery(), after: nil)
        var pages: [(venue: VenueID?, paged: [Int64], expected: [Int64])] = []
        for venue in [nil, hall, other] {
            var paged: [Int64] = [], position: LogPosition?
            while true {
                let page = try await ledger.openVisits(venue: venue, after: position, limit: 3)
                paged += page.map(\.id)
                guard let last = page.last else { break }
                position = LogPosition(after: last)
            }
            pages.append((venue, paged, all.filter { $0.exit == nil && (venue == nil || $0.venue == venue) }.map(\.id)))
        }
        return pages
    }
}
