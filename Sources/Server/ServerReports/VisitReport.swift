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
    private var offsets: ZoneOffsets
    private let now: WallTime
    private var rows = 0

    /// A report in `format`, minutes counted to `now`.
    public init(format: Format, overlaps: Bool, zone: any LocalTimeZone, now: WallTime) {
        self.format = format
        self.overlaps = overlaps
        offsets = ZoneOffsets(zone)
        self.now = now
    }

    /// The column names, in order (CSV's header, JSON's keys).
    public var columns: [String] {
        ["id", "venue", "device", "entered", "local_entered", "minutes_inside", "exit", "exit_kind", "name", "phone", "staff", "operator"]
            + (overlaps ? ["meets"] : [])
    }

    /// The whole report of `rows` (a streaming writer's `header`, every `write`, `footer`).
    public func text(_ rows: [Row]) -> String {
        var report = self
        var out = Array(report.header.utf8)
        for row in rows { report.write(row, to: &out) }
        out.append(contentsOf: report.footer.utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// What comes before the rows.
    public var header: String {
        switch format {
        case .json: "["
        case .csv: columns.joined(separator: ",") + "\r\n"
        case .table: TextTable.line(["ID", "VENUE", "DEVICE", "ENTERED", "MIN", "NAME", "PHONE", "STAFF"]
                                    + (overlaps ? ["EXIT", "MEETS"] : ["OPERATOR"]), widths: widths)
        }
    }

    /// What comes after them.
    public var footer: String { format == .json ? "]\n" : "" }

    private var widths: [Int] { [15, 12, 8, 16, 6, 16, 15, 5] + (overlaps ? [15, 0] : [0]) }

    /// Appends one row (streamed: any number of rows in constant memory).
    public mutating func write(_ row: Row, to out: inout [UInt8]) {
        let visit = row.visit
        let minutes = visit.stayMilliseconds(now: now) / 60_000
        defer { rows += 1 }
        switch format {
        case .json:
            if rows > 0 { out.append(UInt8(ascii: ",")) }
            out.append(10)
            JSONLine.begin(&out)
            JSONLine.number("id", visit.id, to: &out)
            JSONLine.text("venue", visit.venue.rawValue, to: &out)
            JSONLine.text("device", visit.device?.rawValue, to: &out)
            JSONLine.key("entered", to: &out)
            quoted(&out) { TimestampBytes.appendUTC(visit.time, to: &$0) }
            JSONLine.key("local_entered", to: &out)
            let offset = offsets.offsetSeconds(at: visit.time)
            quoted(&out) { TimestampBytes.appendLocal(visit.time, offsetSeconds: offset, to: &$0) }
            JSONLine.number("minutes_inside", minutes, to: &out)
            JSONLine.key("exit", to: &out)
            if let exit = visit.exit { quoted(&out) { TimestampBytes.appendUTC(exit.time, to: &$0) } } else { out.append(contentsOf: "null".utf8) }
            JSONLine.text("exit_kind", visit.exit?.kind.rawValue, to: &out)
            JSONLine.text("name", visit.entry.visitor?.name, to: &out)
            JSONLine.text("phone", visit.entry.visitor?.phone, to: &out)
            JSONLine.key("staff", to: &out)
            out.append(contentsOf: (visit.method == .staff ? "true" : "false").utf8)
            JSONLine.text("operator", visit.entry.operatorName, to: &out)
            if overlaps { JSONLine.number("meets", row.meets, to: &out) }
            out.append(UInt8(ascii: "}"))
        case .csv:
            let comma = UInt8(ascii: ",")
            TimestampBytes.appendDigits(visit.id, to: &out)
            out.append(comma)
            CSV.appendField(visit.venue.rawValue, to: &out)
            out.append(comma)
            if let device = visit.device { CSV.appendField(device.rawValue, to: &out) }
            out.append(comma)
            TimestampBytes.appendUTC(visit.time, to: &out)
            out.append(comma)
            TimestampBytes.appendLocal(visit.time, offsetSeconds: offsets.offsetSeconds(at: visit.time), to: &out)
            out.append(comma)
            TimestampBytes.appendDigits(minutes, to: &out)
            out.append(comma)
            if let exit = visit.exit { TimestampBytes.appendUTC(exit.time, to: &out) }
            out.append(comma)
            if let exit = visit.exit { out.append(contentsOf: exit.kind.rawValue.utf8) }
            out.append(comma)
            if let name = visit.entry.visitor?.name { CSV.appendField(name, to: &out) }
            out.append(comma)
            if let phone = visit.entry.visitor?.phone { CSV.appendField(phone, to: &out) }
            out.append(comma)
            out.append(contentsOf: (visit.method == .staff ? "yes" : "no").utf8)
            out.append(comma)
            if let name = visit.entry.operatorName { CSV.appendField(name, to: &out) }
            if overlaps {
                out.append(comma)
                if let meets = row.meets { TimestampBytes.appendDigits(meets, to: &out) }
            }
            out.append(contentsOf: [13, 10])
        case .table:
            var local: [UInt8] = []
            TimestampBytes.appendLocal(visit.time, offsetSeconds: offsets.offsetSeconds(at: visit.time), to: &local)
            let entered = String(decoding: local.prefix(16), as: UTF8.self).replacing("T", with: " ")
            var exitText = "inside"
            if let exit = visit.exit {
                var bytes: [UInt8] = []
                TimestampBytes.appendLocal(exit.time, offsetSeconds: offsets.offsetSeconds(at: exit.time), to: &bytes)
                exitText = String(decoding: bytes.dropFirst(11).prefix(5), as: UTF8.self) + (exit.kind == .automatic ? " auto" : "")
            }
            let line = TextTable.line(["\(visit.id)", visit.venue.rawValue, visit.device.map { String($0.rawValue.prefix(8)) } ?? "-",
                                       entered, "\(minutes)", visit.entry.visitor?.name ?? "-", visit.entry.visitor?.phone ?? "-",
                                       visit.method == .staff ? "yes" : "no"]
                                      + (overlaps ? [exitText, row.meets.map(String.init) ?? "-"] : [visit.entry.operatorName ?? "-"]),
                                      widths: widths)
            out.append(contentsOf: line.utf8)
        }
    }

    private func quoted(_ out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "\""))
        body(&out)
        out.append(UInt8(ascii: "\""))
    }
}
