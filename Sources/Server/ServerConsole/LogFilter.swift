import ServerDomain
import ServerReports
import ServerWeb
import SharedDomain

/// The visitor log's search, as the log page and the export read it from the query: a venue,
/// a time range and a receipt number, read once into typed values or refused as a whole
/// (`UnreadableField`, a 400 naming the field): a filter that was dropped made an export of
/// the whole log while the form still showed the filter. Words for the audit log's detail, as
/// `checkins` names them.
///
/// Times are what the form's `<input type="datetime-local">` sends (`2026-12-03T14:00`, with
/// `:SS` or `:SS.sss` when seconds are set), read in the server's zone, or ISO 8601 with a zone
/// as `checkins --from` takes it (`2026-12-03T14:00:00+09:00`, `…Z`): one grammar,
/// `ISO8601DateTime`. A date alone is not a time (from its midnight, or to it?): refused.
struct LogFilter: Sendable {
    var venue: VenueID?
    var from: WallTime?
    var until: WallTime?
    var receipt: Int64?
    /// Where the log page's next page starts (`after=MS.N`), on the log page only.
    var after: LogCursor?
    /// Raw texts, to fill the form again.
    var texts: [String: String] = [:]

    /// The fields of the search form, in its order.
    static let fieldNames = ["venue", "from", "until", "receipt"]

    /// The filter `request`'s query names. `paged`: the log page, which also takes `after`;
    /// `also`: names the page reads itself (the export's `format`). Every other name but
    /// `lang` is refused too: a misspelt `vneue=` would have widened an export the same way.
    init(_ request: ConsoleRequest, paged: Bool = false, also: Set<String> = []) throws(UnreadableField) {
        texts = Self.texts(request)
        let known = Set(Self.fieldNames + ["lang"] + (paged ? ["after"] : [])).union(also)
        if let unknown = request.http.query.keys.sorted().first(where: { !known.contains($0) }) {
            throw UnreadableField(name: unknown, text: request.http.query[unknown] ?? "")
        }
        if let text = texts["venue"] {
            // Ids are upper case; the search forgives a lower-case one (it cannot widen anything).
            guard let venue = try? VenueID(text.uppercased()) else { throw UnreadableField(name: "venue", text: text) }
            self.venue = venue
        }
        if let text = texts["from"] {
            guard let time = Self.moment(text, zone: request.zone) else { throw UnreadableField(name: "from", text: text) }
            from = time
        }
        if let text = texts["until"] {
            guard let time = Self.moment(text, zone: request.zone) else { throw UnreadableField(name: "until", text: text) }
            until = time
        }
        if let text = texts["receipt"] {
            guard let number = ReceiptID(text) else { throw UnreadableField(name: "receipt", text: text) }
            receipt = number.rawValue
        }
        if paged, let text = request.query("after") {
            guard let cursor = LogCursor(text) else { throw UnreadableField(name: "after", text: text) }
            after = cursor
        }
    }

    /// The search form's texts as sent (trimmed, empty ones left out), to fill it again.
    static func texts(_ request: ConsoleRequest) -> [String: String] {
        var texts: [String: String] = [:]
        for name in fieldNames { if let value = request.query(name) { texts[name] = value } }
        return texts
    }

    /// The query of these bounds.
    var query: CheckInQuery { CheckInQuery(venue: venue, from: from, until: until) }

    /// Whether `checkIn` is within the venue and time bounds: a receipt number is looked up
    /// alone, and its check-in shown only if the rest of the filter holds too.
    func admits(_ checkIn: CheckIn) -> Bool {
        (venue == nil || checkIn.venue == venue) && (from.map { checkIn.time >= $0 } ?? true) && (until.map { checkIn.time < $0 } ?? true)
    }

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
    var queryString: String { Self.queryString(texts) }

    /// The query string of a filter's texts.
    static func queryString(_ texts: [String: String]) -> String {
        texts.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
    }

    /// The texts the search form shows for this filter: a time as the form's
    /// `datetime-local` input takes it (local, `2026-12-03T14:00:00`), whichever form it came in
    /// (a browser shows an input whose value it cannot read as empty).
    func formTexts(zone: any LocalTimeZone) -> [String: String] {
        var shown = texts
        for (name, time) in [("from", from), ("until", until)] {
            guard let time else { continue }
            let local = LocalTime(time, in: zone)
            shown[name] = "\(local.date)T\(local.second)"
        }
        return shown
    }

    /// The search form's fields, filled with `texts`; the one named by `problem` is marked
    /// invalid and described by the message with the id `problem`.
    static func fields(_ texts: [String: String], _ words: ConsoleWords, problem: UnreadableField? = nil) -> HTML {
        func input(_ name: String, _ label: String, _ type: String) -> HTML {
            let invalid: HTML = problem?.name == name ? " aria-invalid=\"true\" aria-describedby=\"problem\"" : ""
            // `step="1"`: a time with seconds (from a link, or the form filled again) is valid.
            let step: HTML = type == "datetime-local" ? " step=\"1\"" : ""
            return "<label for=\"\(name)\">\(label)</label><input id=\"\(name)\" name=\"\(name)\" type=\"\(type)\"\(step)\(invalid)"
                + " value=\"\(texts[name] ?? "")\">"
        }
        return input("venue", words.venue, "text") + input("from", words.from, "datetime-local") + input("until", words.until, "datetime-local")
            + input("receipt", words.receipt, "text")
    }

    /// The form's local time (in `zone`) or an ISO 8601 time with a zone, as a moment; nil
    /// when it is neither.
    static func moment(_ text: String, zone: any LocalTimeZone) -> WallTime? {
        guard let time = ISO8601DateTime(text) else { return nil }
        if let seconds = time.unixSeconds { return WallTime(seconds: seconds) }
        // A local time: its offset is the zone's at the moment it names (taken twice, so a
        // change of offset that day moves the answer by at most the change, as midnights do).
        let local = time.localSeconds * 1000
        let guess = WallTime(milliseconds: local - Int64(zone.offsetSeconds(at: WallTime(milliseconds: local))) * 1000)
        return WallTime(milliseconds: local - Int64(zone.offsetSeconds(at: guess)) * 1000)
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

/// Where the visitor log's next page starts: `MS.N`, the last row's time and how many rows at
/// that very millisecond were shown already.
struct LogCursor: Equatable, Sendable {
    let milliseconds: Int64
    let shown: Int

    /// `MS.N` read; nil when it is not one.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = Int64(parts[0]), let shown = Int(parts[1]), shown >= 0, shown < 1_000_000 else { return nil }
        self.milliseconds = milliseconds
        self.shown = shown
    }

    /// `MS.N`.
    var text: String { "\(milliseconds).\(shown)" }
}
