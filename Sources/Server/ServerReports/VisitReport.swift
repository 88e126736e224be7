import ServerDomain
import SharedDomain
import SharedJSON

/// Visits as operators read them (issue 32): the evacuation roll (`inside`) and the overlap
/// query (`overlaps`), as a table, CSV (RFC 4180, formulas neutralised as in the export) or
/// JSON (one array of objects). Times are UTC, with the host's local time beside them.
public struct VisitReport: Sendable {
    /// The formats.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, json
    }

    /// One row: a visit and, for an overlap, the visit it met.
    public struct Row: Sendable {
        public let visit: CheckIn
        /// The visit of the query it overlaps (`overlaps`), nil for the roll.
        public let meets: Int64?

        public init(visit: CheckIn, meets: Int64? = nil) {
            self.visit = visit
            self.meets = meets
        }
    }

    public let format: Format
    /// Whether rows carry the visit they meet (`overlaps`).
    public let overlaps: Bool
    private let zone: any LocalTimeZone
    private let now: WallTime

    /// A report in `format`, minutes counted to `now`.
    public init(format: Format, overlaps: Bool, zone: any LocalTimeZone, now: WallTime) {
        self.format = format
        self.overlaps = overlaps
        self.zone = zone
        self.now = now
    }

    /// The column names, in order (CSV's header, JSON's keys).
    public var columns: [String] {
        ["id", "venue", "device", "entered", "local_entered", "minutes_inside", "exit", "exit_kind", "name", "phone", "staff", "operator"]
            + (overlaps ? ["meets"] : [])
    }

    /// The whole report of `rows`.
    public func text(_ rows: [Row]) -> String {
        switch format {
        case .json:
            return JSONValue.array(rows.map(json)).serialized + "\n"
        case .csv:
            var out: [UInt8] = Array((columns.joined(separator: ",") + "\r\n").utf8)
            for row in rows {
                for (index, cell) in cells(row).enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    if let cell { CSV.appendField(cell, to: &out) }
                }
                out.append(contentsOf: [13, 10])
            }
            return String(decoding: out, as: UTF8.self)
        case .table:
            let widths = [15, 12, 8, 16, 6, 16, 15, 5] + (overlaps ? [15, 0] : [0])
            var text = TextTable.line(["ID", "VENUE", "DEVICE", "ENTERED", "MIN", "NAME", "PHONE", "STAFF"]
                                      + (overlaps ? ["EXIT", "MEETS"] : ["OPERATOR"]), widths: widths)
            for row in rows {
                let visit = row.visit
                let entered = LocalTime(visit.time, in: zone)
                let exit = visit.exit.map { exit in
                    let local = LocalTime(exit.time, in: zone)
                    return "\(local.minute)\(exit.kind == .automatic ? " auto" : "")"
                } ?? "inside"
                text += TextTable.line(["\(visit.id)", visit.venue.rawValue, visit.device.map { String($0.rawValue.prefix(8)) } ?? "-",
                                        "\(entered.date) \(entered.minute)", "\(visit.stayMilliseconds(now: now) / 60_000)",
                                        visit.entry.visitor?.name ?? "-", visit.entry.visitor?.phone ?? "-", visit.method == .staff ? "yes" : "no"]
                                       + (overlaps ? [exit, row.meets.map(String.init) ?? "-"] : [visit.entry.operatorName ?? "-"]), widths: widths)
            }
            return text
        }
    }

    private func utc(_ time: WallTime) -> String {
        var bytes: [UInt8] = []
        TimestampBytes.appendUTC(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func local(_ time: WallTime) -> String {
        var bytes: [UInt8] = []
        TimestampBytes.appendLocal(time, offsetSeconds: zone.offsetSeconds(at: time), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The row's cells as text, in `columns` order (nil: empty).
    private func cells(_ row: Row) -> [String?] {
        let visit = row.visit
        return ["\(visit.id)", visit.venue.rawValue, visit.device?.rawValue, utc(visit.time), local(visit.time),
                "\(visit.stayMilliseconds(now: now) / 60_000)", visit.exit.map { utc($0.time) }, visit.exit?.kind.rawValue,
                visit.entry.visitor?.name, visit.entry.visitor?.phone, visit.method == .staff ? "yes" : "no", visit.entry.operatorName]
            + (overlaps ? [row.meets.map(String.init)] : [])
    }

    private func json(_ row: Row) -> JSONValue {
        let visit = row.visit
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var members: [(String, JSONValue)] = [
            ("id", .number(visit.id)), ("venue", .string(visit.venue.rawValue)), ("device", text(visit.device?.rawValue)),
            ("entered", .string(utc(visit.time))), ("local_entered", .string(local(visit.time))),
            ("minutes_inside", .number(visit.stayMilliseconds(now: now) / 60_000)),
            ("exit", text(visit.exit.map { utc($0.time) })), ("exit_kind", text(visit.exit?.kind.rawValue)),
            ("name", text(visit.entry.visitor?.name)), ("phone", text(visit.entry.visitor?.phone)),
            ("staff", .bool(visit.method == .staff)), ("operator", text(visit.entry.operatorName)),
        ]
        if overlaps { members.append(("meets", row.meets.map(JSONValue.number) ?? .null)) }
        return .object(members)
    }
}
