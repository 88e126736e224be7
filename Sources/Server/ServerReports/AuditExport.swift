import ServerDomain
import SharedDomain

/// The audit log as text, one entry at a time: CSV with a header line, JSON lines, or an
/// aligned table for a terminal, newest first as the log lists them. The same helpers as the
/// visitor log's export write the fields (quoting, escaping), so both read alike.
public struct AuditExport: Sendable {
    /// The columns, as CSV names them (JSON uses the same names).
    public static let columns = ["id", "time", "local_time", "actor", "action", "subject", "detail", "rows", "source"]

    /// The format entries are written in.
    public let format: CheckInExport.Format
    private var offsets: ZoneOffsets

    /// An export in `format`, local times in `zone`.
    public init(format: CheckInExport.Format, zone: any LocalTimeZone) {
        self.format = format
        offsets = ZoneOffsets(zone)
    }

    /// The text before the first entry (CSV's header, the table's head), or "".
    public var header: String {
        switch format {
        case .csv: Self.columns.joined(separator: ",") + "\r\n"
        case .jsonl: ""
        case .table: TextTable.line(["ID", "LOCAL TIME", "ACTOR", "ACTION", "SUBJECT", "ROWS", "SOURCE", "DETAIL"], widths: Self.widths)
        }
    }

    /// Appends one entry's line, with its line end, to `out`.
    public mutating func write(_ entry: AuditEntry, to out: inout [UInt8]) {
        let offset = offsets.offsetSeconds(at: entry.time)
        switch format {
        case .csv:
            TimestampBytes.appendDigits(entry.id ?? 0, to: &out)
            out.append(comma)
            TimestampBytes.appendUTC(entry.time, to: &out)
            out.append(comma)
            TimestampBytes.appendLocal(entry.time, offsetSeconds: offset, to: &out)
            for text in [entry.actor, entry.action.rawValue, entry.subject, entry.detail] {
                out.append(comma)
                if let text { CSV.appendField(text, to: &out) }
            }
            out.append(comma)
            if let rows = entry.rows { TimestampBytes.appendDigits(Int64(rows), to: &out) }
            out.append(comma)
            if let source = entry.source { CSV.appendField(source, to: &out) }
            out.append(contentsOf: [13, 10])
        case .jsonl:
            JSONLine.begin(&out)
            JSONLine.number("id", entry.id, to: &out)
            JSONLine.key("time", to: &out)
            out.append(quote)
            TimestampBytes.appendUTC(entry.time, to: &out)
            out.append(quote)
            JSONLine.key("local_time", to: &out)
            out.append(quote)
            TimestampBytes.appendLocal(entry.time, offsetSeconds: offset, to: &out)
            out.append(quote)
            JSONLine.text("actor", entry.actor, to: &out)
            JSONLine.text("action", entry.action.rawValue, to: &out)
            JSONLine.text("subject", entry.subject, to: &out)
            JSONLine.text("detail", entry.detail, to: &out)
            JSONLine.number("rows", entry.rows.map(Int64.init), to: &out)
            JSONLine.text("source", entry.source, to: &out)
            JSONLine.end(&out)
        case .table:
            var local: [UInt8] = []
            TimestampBytes.appendLocal(entry.time, offsetSeconds: offset, to: &local)
            let localText = String(decoding: local.prefix(19), as: UTF8.self).replacing("T", with: " ")
            let line = TextTable.line(["\(entry.id ?? 0)", localText, entry.actor, entry.action.rawValue, entry.subject ?? "-",
                                       entry.rows.map(String.init) ?? "-", entry.source ?? "-", entry.detail ?? "-"], widths: Self.widths)
            out.append(contentsOf: line.utf8)
        }
    }

    /// The table's columns (a stream cannot measure its rows first).
    static let widths = [7, 19, 12, 16, 18, 7, 24, 0]

    private var comma: UInt8 { UInt8(ascii: ",") }
    private var quote: UInt8 { UInt8(ascii: "\"") }
}
