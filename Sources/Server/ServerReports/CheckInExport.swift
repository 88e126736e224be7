import ServerDomain
import SharedJSON

/// The visitor log as text, one check-in at a time (so an export of any size runs in constant
/// memory): CSV with a header line, JSON lines, or an aligned table for a terminal. The columns
/// are the same in every format. Rows are written as bytes into the caller's buffer.
public struct CheckInExport: Sendable {
    /// The formats.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, jsonl
    }

    /// The columns, as CSV names them (JSON uses the same names).
    public static let columns = ["id", "venue", "time", "local_time", "method", "window_age", "device", "name", "phone", "operator", "exit", "exit_kind", "stay_seconds"]

    /// The format rows are written in.
    public let format: Format
    /// Whether CSV is for Excel: a byte order mark first (else Excel reads UTF-8 as the
    /// system's code page and garbles Hangul), and phone numbers as `="010…"` (else Excel
    /// takes them for numbers and drops the leading 0).
    public let excel: Bool
    private var offsets: ZoneOffsets

    /// An export in `format` (CSV for Excel when `excel`), local times in `zone`.
    public init(format: Format, excel: Bool = false, zone: any LocalTimeZone) {
        self.format = format
        self.excel = excel && format == .csv
        offsets = ZoneOffsets(zone)
    }

    /// The text before the first row (CSV's header, the table's head), or "".
    public var header: String {
        switch format {
        case .csv: (excel ? "\u{FEFF}" : "") + Self.columns.joined(separator: ",") + "\r\n"
        case .jsonl: ""
        case .table: TextTable.line(["ID", "VENUE", "LOCAL TIME", "METHOD", "AGE", "DEVICE", "NAME", "PHONE", "OPERATOR"], widths: Self.widths)
        }
    }

    /// One check-in's line as text, with its line end.
    public mutating func line(_ checkIn: CheckIn) -> String {
        var bytes: [UInt8] = []
        write(checkIn, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one check-in's line, with its line end, to `out`.
    public mutating func write(_ checkIn: CheckIn, to out: inout [UInt8]) {
        let entry = checkIn.entry
        let offset = offsets.offsetSeconds(at: checkIn.time)
        switch format {
        case .csv:
            TimestampBytes.appendDigits(checkIn.id, to: &out)
            out.append(comma)
            CSV.appendField(checkIn.venue.rawValue, to: &out)
            out.append(comma)
            TimestampBytes.appendUTC(checkIn.time, to: &out)
            out.append(comma)
            TimestampBytes.appendLocal(checkIn.time, offsetSeconds: offset, to: &out)
            out.append(comma)
            CSV.appendField(entry.method.rawValue, to: &out)
            out.append(comma)
            if let age = entry.windowAge { TimestampBytes.appendDigits(Int64(age), to: &out) }
            out.append(comma)
            if let device = entry.device { CSV.appendField(device.rawValue, to: &out) }
            out.append(comma)
            if let name = entry.visitor?.name { CSV.appendField(name, to: &out) }
            out.append(comma)
            if let phone = entry.visitor?.phone {
                // Digits only (`Visitor.normalizedPhone`, checked again): the formula holds nothing else.
                if excel && phone.utf8.allSatisfy({ (48...57).contains($0) }) {
                    out.append(contentsOf: Array("\"=\"\"\(phone)\"\"\"".utf8))
                } else {
                    CSV.appendField(phone, to: &out)
                }
            }
            out.append(comma)
            if let name = entry.operatorName { CSV.appendField(name, to: &out) }
            // The visit's end (issue 32): empty while open; `automatic` is a bound, not a time of leaving.
            out.append(comma)
            if let exit = checkIn.exit { TimestampBytes.appendUTC(exit.time, to: &out) }
            out.append(comma)
            if let exit = checkIn.exit { out.append(contentsOf: exit.kind.rawValue.utf8) }
            out.append(comma)
            if let exit = checkIn.exit { TimestampBytes.appendDigits(checkIn.stayMilliseconds(now: exit.time) / 1000, to: &out) }
            out.append(contentsOf: [13, 10])
        case .jsonl:
            JSONLine.begin(&out)
            JSONLine.number("id", checkIn.id, to: &out)
            JSONLine.text("venue", checkIn.venue.rawValue, to: &out)
            JSONLine.key("time", to: &out)
            out.append(quote)
            TimestampBytes.appendUTC(checkIn.time, to: &out)
            out.append(quote)
            JSONLine.key("local_time", to: &out)
            out.append(quote)
            TimestampBytes.appendLocal(checkIn.time, offsetSeconds: offset, to: &out)
            out.append(quote)
            JSONLine.text("method", entry.method.rawValue, to: &out)
            JSONLine.number("window_age", entry.windowAge.map(Int64.init), to: &out)
            JSONLine.text("device", entry.device?.rawValue, to: &out)
            JSONLine.text("name", entry.visitor?.name, to: &out)
            JSONLine.text("phone", entry.visitor?.phone, to: &out)
            JSONLine.text("operator", entry.operatorName, to: &out)
            JSONLine.key("exit", to: &out)
            if let exit = checkIn.exit {
                out.append(quote)
                TimestampBytes.appendUTC(exit.time, to: &out)
                out.append(quote)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            JSONLine.text("exit_kind", checkIn.exit?.kind.rawValue, to: &out)
            JSONLine.number("stay_seconds", checkIn.exit.map { checkIn.stayMilliseconds(now: $0.time) / 1000 }, to: &out)
            JSONLine.end(&out)
        case .table:
            var local: [UInt8] = []
            TimestampBytes.appendLocal(checkIn.time, offsetSeconds: offset, to: &local)
            let localText = String(decoding: local.prefix(19), as: UTF8.self).replacing("T", with: " ")
            let line = TextTable.line(["\(checkIn.id)", checkIn.venue.rawValue, localText, entry.method.rawValue,
                                       entry.windowAge.map(String.init) ?? "-", entry.device?.shown ?? "-",
                                       entry.visitor?.name ?? "-", entry.visitor?.phone ?? "-", entry.operatorName ?? "-"], widths: Self.widths)
            out.append(contentsOf: line.utf8)
        }
    }

    /// The table's columns (a stream cannot measure its rows first).
    static let widths = [15, 16, 19, 11, 3, DeviceID.shownLength, 16, 15, 0]  // ids are up to 15 digits (CheckInIDCipher)

    private var comma: UInt8 { UInt8(ascii: ",") }
    private var quote: UInt8 { UInt8(ascii: "\"") }
}
