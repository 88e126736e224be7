import ServerDomain
import SharedDomain
import SharedJSON
import SharedText

/// The kiosks as `qrcheckin-server kiosks` lists them (a table, or JSON with the keys the
/// console and the docs name: `venue`, `kiosk`, `state`, `lastSeen`, `clockSkewSeconds`,
/// `window`, `refresh`, `shake`, `health`, `problems`, …), each judged at one moment.
public struct KioskListing: Sendable {
    /// One kiosk and the verdict on it.
    public struct Row: Sendable {
        public let record: KioskRecord
        public let verdict: KioskVerdict

        /// A row.
        public init(record: KioskRecord, verdict: KioskVerdict) {
            self.record = record
            self.verdict = verdict
        }

        /// The row as a JSON object (camelCase keys, as `current.json` and `status --json`).
        public var json: JSONValue {
            let report = record.report, daemon = report.daemon
            func number(_ value: Int64?) -> JSONValue { value.map(JSONValue.number) ?? .null }
            func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            let steer: JSONValue = record.steer.map { given in
                .object([
                    ("id", .number(given.steer.id)), ("refresh", text(given.steer.refresh?.rawValue)), ("shake", text(given.steer.shake?.rawValue)),
                    ("newCode", .bool(given.steer.newCode)), ("by", .string(given.steer.by.rawValue)),
                    ("at", .string(UTCTime.iso8601(given.steer.at))), ("appliedAt", given.appliedAt.map { .string(UTCTime.iso8601($0)) } ?? .null),
                    ("outcome", text(given.outcome)),
                ])
            } ?? .null
            return .object([
                ("venue", .string(report.venue.rawValue)), ("kiosk", .string(report.kiosk.rawValue)),
                ("state", .string(verdict.state.rawValue)), ("lastSeen", .string(UTCTime.iso8601(record.receivedAt.seconds))),
                ("silenceSeconds", .number(verdict.silenceSeconds)),
                ("clockSkewSeconds", .number(verdict.clock.seconds)), ("clockBoundMs", number(verdict.clock.boundMilliseconds)),
                ("window", number(daemon?.window)), ("expectedWindow", number(verdict.expectedWindow)), ("sequence", number(daemon?.seq)),
                ("refresh", text(daemon?.refresh.rawValue)), ("shake", text(daemon?.shake.rawValue)),
                ("health", text(daemon?.health)), ("reason", text(daemon?.reason)),
                ("status", .string(report.status.rawValue)), ("version", .string(report.version)),
                ("reportInterval", .number(report.reportInterval)),
                ("modeChangedBy", text(daemon?.modeChange?.by?.rawValue)), ("modeSource", text(daemon?.modeChange?.source.rawValue)),
                ("problems", .array(verdict.problems.map { .string($0.english) })),
                ("problemCodes", .array(verdict.problems.map { .string($0.code) })),
                ("steer", steer),
            ])
        }
    }

    public let rows: [Row]

    /// The listing of `records` judged by `judge` at `now`.
    public init(records: [KioskRecord], judge: KioskJudge, now: WallTime) {
        rows = records.map { Row(record: $0, verdict: judge.verdict(on: $0, at: now)) }
    }

    /// Every row as one JSON array.
    public var json: String { JSONValue.array(rows.map(\.json)).serialized + "\n" }

    /// An aligned table, one kiosk a line, its problems in English words.
    public var table: String {
        let header = ["VENUE", "KIOSK", "STATE", "LAST SEEN (UTC)", "SKEW", "WINDOW", "REFRESH", "SHAKE", "HEALTH", "PROBLEMS"]
        let cells: [[String]] = rows.map { row in
            let daemon = row.record.report.daemon
            return [
                row.record.report.venue.rawValue, row.record.report.kiosk.rawValue, row.verdict.state.rawValue,
                UTCTime.iso8601(row.record.receivedAt.seconds), "\(row.verdict.clock.seconds) s",
                daemon?.window.map(String.init) ?? "-", daemon?.refresh.rawValue ?? "-", daemon?.shake.rawValue ?? "-",
                daemon?.health ?? "-", row.verdict.problems.isEmpty ? "-" : row.verdict.problems.map(\.english).joined(separator: "; "),
            ]
        }
        var widths = header.indices.map { column in ([header] + cells).map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        widths[widths.count - 1] = 0
        return ([header] + cells).map { TextTable.line($0, widths: widths) }.joined()
    }

    /// The worst state among the rows, and whether any has a problem: what the exit status says.
    public var worst: (state: KioskState, problems: Bool) {
        (rows.map(\.verdict.state).max() ?? .ok, rows.contains { !$0.verdict.problems.isEmpty })
    }
}
