import ServerDomain
import SharedDomain
import SharedJSON

/// `qrcheckin-server status` as text or JSON: the live counts, the log's size and its oldest
/// check-in, and when that one is deleted under the retention in force.
public struct ServerStatusReport: Sendable {
    /// Today's and the last hour's counts.
    public let counts: LiveCounts
    /// The oldest check-in still in the log, if any.
    public let oldest: WallTime?
    /// The retention the settings name.
    public let policy: RetentionPolicy
    /// Where the log is (`sqlite:/var/lib/…`).
    public let database: String
    private let zone: any LocalTimeZone

    /// A report of these facts, times shown in `zone`.
    public init(counts: LiveCounts, oldest: WallTime?, policy: RetentionPolicy, database: String, zone: any LocalTimeZone) {
        self.counts = counts
        self.oldest = oldest
        self.policy = policy
        self.database = database
        self.zone = zone
    }

    /// When the oldest check-in is (or was) due for deletion.
    public var oldestDue: WallTime? {
        oldest.map { WallTime(milliseconds: $0.milliseconds + policy.checkInSeconds * 1000) }
    }

    /// Lines for a terminal.
    public var text: String {
        var lines = [
            "check-ins today: \(counts.today) (since \(moment(counts.dayStart)))",
            "in the last hour: \(counts.lastHour)",
        ]
        if !counts.venues.isEmpty {
            let widths = [16, 7, 0]
            lines.append(TextTable.line(["VENUE", "TODAY", "LAST HOUR"], widths: widths).dropLast().description)
            for venue in counts.venues {
                lines.append(TextTable.line([venue.venue.rawValue, "\(venue.today)", "\(venue.lastHour)"], widths: widths).dropLast().description)
            }
        }
        if !counts.presence.isEmpty {
            let widths = [16, 7, 0]
            lines.append(TextTable.line(["VENUE", "INSIDE", "CAPACITY"], widths: widths).dropLast().description)
            for venue in counts.presence {
                lines.append(TextTable.line([venue.venue.rawValue, "\(venue.inside)", venue.capacity.map(String.init) ?? "-"], widths: widths)
                    .dropLast().description)
            }
        }
        var log = "in the log: \(counts.total) check-in\(counts.total == 1 ? "" : "s")"
        if let oldest, let due = oldestDue { log += ", the oldest from \(moment(oldest)) (deleted after \(moment(due)))" }
        lines.append(log)
        lines.append("retention: check-ins \(PeriodText.of(policy.checkInSeconds)), refused scans \(PeriodText.of(policy.refusalSeconds)), "
                     + "daily counts \(policy.keepsDailyCounts ? "kept" : "not kept") (\(database))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object (times as ISO 8601 UTC, periods in seconds).
    public var json: String {
        func time(_ value: WallTime?) -> JSONValue {
            guard let value else { return .null }
            var bytes: [UInt8] = []
            TimestampBytes.appendUTC(value, to: &bytes)
            return .string(String(decoding: bytes, as: UTF8.self))
        }
        let venues = JSONValue.array(counts.venues.map { venue in
            .object([("venue", .string(venue.venue.rawValue)), ("today", .number(Int64(venue.today))),
                     ("last_hour", .number(Int64(venue.lastHour)))])
        })
        return JSONValue.object([
            ("at", time(counts.at)), ("day_start", time(counts.dayStart)),
            ("today", .number(Int64(counts.today))), ("last_hour", .number(Int64(counts.lastHour))), ("venues", venues),
            ("inside", .array(counts.presence.map { venue in
                .object([("venue", .string(venue.venue.rawValue)), ("inside", .number(Int64(venue.inside))),
                         ("capacity", venue.capacity.map { .number(Int64($0)) } ?? .null)])
            })),
            ("total", .number(Int64(counts.total))), ("oldest", time(oldest)), ("oldest_due", time(oldestDue)),
            ("retention_seconds", .number(policy.checkInSeconds)), ("refusal_retention_seconds", .number(policy.refusalSeconds)),
            ("keep_counts", .bool(policy.keepsDailyCounts)), ("database", .string(database)),
        ]).serialized + "\n"
    }

    private func moment(_ time: WallTime) -> String {
        let local = LocalTime(time, in: zone)
        return "\(local.date) \(local.second) \(local.offset)"
    }
}
