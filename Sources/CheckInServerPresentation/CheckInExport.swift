import CheckInDomain
import CheckInJSON
import CheckInPresentation
import CheckInServerDomain

/// The visitor log as text, one check-in at a time (so an export of any size runs in constant
/// memory): CSV with a header line, JSON lines, or an aligned table for a terminal. The columns
/// are the same in every format.
public struct CheckInExport: Sendable {
    /// The formats.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, jsonl
    }

    /// The columns, as CSV names them (JSON uses the same names).
    public static let columns = ["id", "venue", "time", "local_time", "method", "window_age", "device", "name", "phone", "operator"]

    public let format: Format
    private let zone: any LocalTimeZone

    /// An export in `format`, local times in `zone`.
    public init(format: Format, zone: any LocalTimeZone) {
        self.format = format
        self.zone = zone
    }

    /// The text before the first row (CSV's header, the table's head), or "".
    public var header: String {
        switch format {
        case .csv: Self.columns.joined(separator: ",") + "\r\n"
        case .jsonl: ""
        case .table: Self.tableLine(["ID", "VENUE", "LOCAL TIME", "METHOD", "AGE", "DEVICE", "NAME", "PHONE", "OPERATOR"])
        }
    }

    /// One check-in's line, with its line end.
    public func line(_ checkIn: CheckIn) -> String {
        let entry = checkIn.entry
        let utc = Self.utc(checkIn.time)
        let local = LocalTime(checkIn.time, in: zone)
        switch format {
        case .csv:
            let fields = ["\(checkIn.id)", checkIn.venue.rawValue, utc, local.iso8601, entry.method.rawValue,
                          entry.windowAge.map(String.init) ?? "", entry.device?.rawValue ?? "", entry.visitor?.name ?? "",
                          entry.visitor?.phone ?? "", entry.operatorName ?? ""]
            return fields.map(Self.csvField).joined(separator: ",") + "\r\n"
        case .jsonl:
            func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            let object = JSONValue.object([
                ("id", .number(checkIn.id)), ("venue", .string(checkIn.venue.rawValue)), ("time", .string(utc)),
                ("local_time", .string(local.iso8601)), ("method", .string(entry.method.rawValue)),
                ("window_age", entry.windowAge.map { .number(Int64($0)) } ?? .null), ("device", text(entry.device?.rawValue)),
                ("name", text(entry.visitor?.name)), ("phone", text(entry.visitor?.phone)), ("operator", text(entry.operatorName)),
            ])
            return object.serialized + "\n"
        case .table:
            return Self.tableLine(["\(checkIn.id)", checkIn.venue.rawValue, "\(local.date) \(local.second)", entry.method.rawValue,
                                   entry.windowAge.map(String.init) ?? "-", entry.device.map { String($0.rawValue.prefix(8)) } ?? "-",
                                   entry.visitor?.name ?? "-", entry.visitor?.phone ?? "-", entry.operatorName ?? "-"])
        }
    }

    /// `2026-11-30T05:03:27.120Z`.
    static func utc(_ time: WallTime) -> String {
        let seconds = UTCTime.iso8601(time.seconds)
        let millis = time.milliseconds - time.seconds * 1000
        return seconds.dropLast() + "." + String(String(1000 + millis).dropFirst()) + "Z"
    }

    /// RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// Fixed columns (a stream cannot measure its rows first), padded by display width so
    /// Hangul names line up.
    static let widths = [7, 16, 19, 11, 3, 8, 16, 15, 0]
    static func tableLine(_ cells: [String]) -> String {
        var line = ""
        for (cell, width) in zip(cells, widths) {
            let flat = String(cell.map { $0.isNewline || $0 == "\t" ? " " : $0 })
            line += flat
            if width > 0 { line += String(repeating: " ", count: max(1, width - DisplayWidth.of(flat) + 1)) }
        }
        return line + "\n"
    }
}
