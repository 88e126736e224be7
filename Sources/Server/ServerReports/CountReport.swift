import ServerDomain
import SharedDomain
import SharedJSON

/// Counts of check-ins grouped by venue, local day or local hour (`checkins --count --by …`),
/// built from the ledger's tallies (quarter hours, UTC) and, for days, the counts purges kept.
public struct CountReport: Sendable {
    /// What rows are grouped by.
    public enum Key: String, CaseIterable, Sendable {
        case venue, day, hour
    }

    /// The grouping, in column order (`venue,day`).
    public let keys: [Key]
    private let zone: any LocalTimeZone
    private var counts: [[String]: Int] = [:]
    /// What the numbers are: `count` (check-ins) or `peak` (the most visits open at once).
    public var measure = "count"

    /// An empty report grouped by `keys` (not empty), local days and hours in `zone`.
    public init(keys: [Key], zone: any LocalTimeZone) {
        precondition(!keys.isEmpty, "a report groups by something")
        self.keys = keys
        self.zone = zone
    }

    /// Adds a ledger tally: its quarter hour lies in exactly one local hour and day.
    public mutating func add(_ tally: CheckInTally) {
        let offset = zone.offsetSeconds(at: tally.quarter)
        let cells = keys.map { key -> String in
            switch key {
            case .venue: return tally.venue.rawValue
            case .day: return CalendarDay(containing: tally.quarter, offsetSeconds: offset).description
            case .hour:
                var bytes: [UInt8] = []
                let hourStart = WallTime(milliseconds: tally.quarter.milliseconds
                                         - TimestampBytes.floorDivide(tally.quarter.milliseconds + Int64(offset) * 1000, 3_600_000).1)
                TimestampBytes.appendLocal(hourStart, offsetSeconds: offset, to: &bytes)
                // 2026-11-30T14:00:00+09:00 → 2026-11-30T14:00+09:00
                bytes.removeSubrange(16..<19)
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        counts[cells, default: 0] += tally.count
    }

    /// Adds a count a purge kept; only for reports without `hour` (kept counts are whole days).
    public mutating func add(_ kept: DailyCount) {
        precondition(!keys.contains(.hour), "kept counts have no hours")
        let cells = keys.map { key in key == .venue ? kept.venue.rawValue : kept.day.description }
        counts[cells, default: 0] += kept.count
    }

    /// The rows, sorted by their cells (days and hours sort as text: ISO 8601).
    /// Adds a peak of visits open at once (`checkins --count --peak`); `keys` are venue and day only.
    public mutating func add(peak: Int, venue: VenueID?, day: CalendarDay?) {
        measure = "peak"
        let cells = keys.map { key in key == .venue ? venue?.rawValue ?? "" : day?.description ?? "" }
        counts[cells] = max(counts[cells] ?? 0, peak)
    }

    public var rows: [(cells: [String], count: Int)] {
        counts.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.key, $0.value) }
    }

    /// The report in `format`: a table, CSV with a header, or one JSON object a line.
    public func text(_ format: CheckInExport.Format) -> String {
        let names = keys.map(\.rawValue) + [measure]
        switch format {
        case .csv:
            var text = names.joined(separator: ",") + "\r\n"
            for row in rows {
                var bytes: [UInt8] = []
                for cell in row.cells {
                    CSV.appendField(cell, to: &bytes)
                    bytes.append(UInt8(ascii: ","))
                }
                text += String(decoding: bytes, as: UTF8.self) + "\(row.count)\r\n"
            }
            return text
        case .jsonl:
            return rows.map { row in
                let members = zip(keys, row.cells).map { ($0.rawValue, JSONValue.string($1)) } + [(measure, JSONValue.number(Int64(row.count)))]
                return JSONValue.object(members).serialized + "\n"
            }.joined()
        case .table:
            let widths = keys.map { key in key == .venue ? 16 : key == .day ? 10 : 22 } + [0]
            let total = rows.reduce(0) { $0 + $1.count }
            return TextTable.line(names.map { $0.uppercased() }, widths: widths)
                + rows.map { TextTable.line($0.cells + ["\($0.count)"], widths: widths) }.joined()
                + (measure == "count" ? TextTable.line(["total"] + Array(repeating: "", count: keys.count - 1) + ["\(total)"], widths: widths) : "")
        }
    }
}
