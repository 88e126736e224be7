import ServerDomain
import ServerReports
import ServerSite
import SharedDomain

/// The visitor log's search, as the log page and the export read it from the query: a venue,
/// a time range in local time (`2026-12-03T14:00`, what `<input type="datetime-local">`
/// sends) and a receipt number. Words for the audit log's detail, as `checkins` names them.
struct LogFilter: Sendable {
    var venue: VenueID?
    var from: WallTime?
    var until: WallTime?
    var receipt: Int64?
    /// Raw texts, to fill the form again.
    var texts: [String: String] = [:]

    init(_ request: ConsoleRequest) {
        for name in ["venue", "from", "until", "receipt"] { if let value = request.query(name) { texts[name] = value } }
        venue = texts["venue"].flatMap { try? VenueID($0.uppercased()) }
        from = texts["from"].flatMap { Self.localTime($0, zone: request.zone) }
        until = texts["until"].flatMap { Self.localTime($0, zone: request.zone) }
        receipt = texts["receipt"].flatMap { Int64($0) }
    }

    /// The query of these bounds.
    var query: CheckInQuery { CheckInQuery(venue: venue, from: from, until: until) }

    /// `venue=HALL-1 from=… until=…`: the filter as the audit log keeps it.
    var detail: String {
        var parts: [String] = []
        if let venue { parts.append("venue=\(venue)") }
        if let from { parts.append("from=\(from.milliseconds)") }
        if let until { parts.append("until=\(until.milliseconds)") }
        if let receipt { parts.append("receipt=\(receipt)") }
        return parts.isEmpty ? "all" : parts.joined(separator: " ")
    }

    /// The query string of the filter (for the next page's and the export's links).
    var queryString: String {
        texts.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
    }

    /// The search form's fields, filled.
    func fields(_ words: ConsoleWords) -> String {
        func input(_ name: String, _ label: String, _ type: String) -> String {
            "<label for=\"\(name)\">\(HTML.escape(label))</label><input id=\"\(name)\" name=\"\(name)\" type=\"\(type)\" value=\"\(HTML.escape(texts[name] ?? ""))\">"
        }
        return input("venue", words.venue, "text") + input("from", words.from, "datetime-local") + input("until", words.until, "datetime-local")
            + input("receipt", words.receipt, "text")
    }

    /// `YYYY-MM-DDTHH:MM[:SS]` in `zone` as a moment; nil when it is not one.
    static func localTime(_ text: String, zone: any LocalTimeZone) -> WallTime? {
        let digits = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " }).map { Int64($0) }
        guard digits.count >= 5, digits.count <= 6, !digits.contains(nil) else { return nil }
        let (year, month, day, hour, minute) = (digits[0]!, digits[1]!, digits[2]!, digits[3]!, digits[4]!)
        let second = digits.count == 6 ? digits[5]! : 0
        guard (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...59).contains(second) else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let localMilliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
        let guess = WallTime(milliseconds: localMilliseconds)
        let offset = Int64(zone.offsetSeconds(at: WallTime(milliseconds: localMilliseconds - Int64(zone.offsetSeconds(at: guess)) * 1000))) * 1000
        return WallTime(milliseconds: localMilliseconds - offset)
    }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return out
    }
}
