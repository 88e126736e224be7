import SharedDomain

/// A report's body as JSON (docs/TOKEN.md, "Kiosk reports"; the names `current.json` uses):
/// written by the kiosk, read back by the server with every field checked.
extension KioskReport {
    /// The body's bytes: compact JSON, keys in this order, text cut to `maximumTextLength` bytes.
    public var bodyBytes: [UInt8] { json.serializedBytes }

    /// The body as a JSON value.
    public var json: JSONValue {
        func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        func optional(_ value: String?) -> JSONValue { value.map { .string(Self.cut($0)) } ?? .null }
        let daemon = daemon
        return .object([
            ("venue", .string(venue.rawValue)),
            ("kiosk", .string(kiosk.rawValue)),
            ("version", .string(version)),
            ("reportInterval", .number(reportInterval)),
            ("wallClock", .number(wallClock)),
            ("lastRoundTripMs", optional(lastRoundTripMs)),
            ("uptimeSeconds", optional(uptimeSeconds)),
            ("status", .string(status.rawValue)),
            ("summary", .string(Self.cut(summary))),
            ("state", optional(daemon?.state.rawValue)),
            ("window", optional(daemon?.window)),
            ("seq", optional(daemon?.seq)),
            ("expiresAt", optional(daemon?.expiresAt)),
            ("period", optional(daemon?.period)),
            ("health", optional(daemon?.health)),
            ("reason", optional(daemon?.reason)),
            ("shake", optional(daemon?.shake.rawValue)),
            ("refresh", optional(daemon?.refresh.rawValue)),
            ("modeSource", optional(daemon?.modeChange?.source.rawValue)),
            ("modeChangedBy", optional(daemon?.modeChange?.by?.rawValue)),
            ("modeChangedAt", optional(daemon?.modeChange?.at)),
            ("clock", daemon.map { daemon in
                .object([("synchronized", daemon.clockSynchronized.map(JSONValue.bool) ?? .null),
                         ("maxErrorSeconds", optional(daemon.clockMaxErrorSeconds))])
            } ?? .null),
            ("outputAgeSeconds", .object([("png", optional(outputAgeSeconds.png)), ("json", optional(outputAgeSeconds.json)),
                                          ("txt", optional(outputAgeSeconds.txt))])),
            ("applied", applied.map { applied in
                .object([("steer", .number(applied.steer)), ("at", .number(applied.at)), ("outcome", .string(Self.cut(applied.outcome)))])
            } ?? .null),
        ])
    }

    /// `text` cut to at most `maximumTextLength` UTF-8 bytes, on a character boundary.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > maximumTextLength else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= maximumTextLength - 3 else { break }
            result.append(character)
        }
        return result + "…"
    }

    /// Reads a body (the server): at most `maximumBodyBytes`, one JSON object, every field of
    /// the right type and range; unknown fields are ignored (a newer kiosk may send more).
    public init(body: [UInt8]) throws(ReportFormatError) {
        guard body.count <= Self.maximumBodyBytes else { throw .malformed("the body is over \(Self.maximumBodyBytes) bytes") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .malformed(error.description)
        }
        try self.init(json: value)
    }

    /// Reads a body already parsed.
    public init(json value: JSONValue) throws(ReportFormatError) {
        guard case .object = value else { throw .malformed("the body is not a JSON object") }
        let fields = JSONFields(value)
        let venueText = try fields.string("venue")
        let venue: VenueID
        do throws(CheckInCodeError) {
            venue = try VenueID(venueText)
        } catch {
            throw .malformed("venue: \(error.description)")
        }
        let kioskText = try fields.string("kiosk")
        let kiosk: KioskName
        do throws(KioskNameError) {
            kiosk = try KioskName(kioskText)
        } catch {
            throw .malformed("kiosk: \(error.description)")
        }
        let version = try fields.string("version")
        guard (1...32).contains(version.utf8.count), version.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformed("version must be 1-32 printable ASCII characters")
        }
        var daemon: Daemon?
        if let state = try fields.optionalWord("state", as: State.self) {
            var change: ModeChange?
            if let source = try fields.optionalWord("modeSource", as: ModeSource.self) {
                let by = try fields.optionalString("modeChangedBy")
                guard by.map({ OperatorName($0) != nil }) ?? true else { throw .malformed("modeChangedBy is not an operator's name") }
                change = ModeChange(source: source, by: by.flatMap(OperatorName.init),
                                    at: try fields.number("modeChangedAt", in: -Self.timeLimit...Self.timeLimit))
            }
            let clock = fields.member("clock").flatMap { $0 == .null ? nil : $0 }
            if let clock, case .object = clock {} else if clock != nil { throw .malformed("clock is not an object") }
            let clockFields = JSONFields(clock ?? .object([]))
            daemon = Daemon(
                state: state, window: try fields.optionalNumber("window", in: Int64.min...Int64.max),
                seq: try fields.optionalNumber("seq", in: 0...Int64(UInt32.max)),
                expiresAt: try fields.optionalNumber("expiresAt", in: -Self.timeLimit...Self.timeLimit),
                period: try fields.number("period", in: 1...3600), health: try fields.text("health"),
                reason: try fields.optionalText("reason"), shake: try fields.word("shake", as: ShakeMode.self),
                refresh: try fields.word("refresh", as: RefreshMode.self), modeChange: change,
                clockSynchronized: try clockFields.optionalBool("synchronized"),
                clockMaxErrorSeconds: try clockFields.optionalNumber("maxErrorSeconds", in: 0...Int64.max))
        }
        let ages = JSONFields(fields.member("outputAgeSeconds") ?? .object([]))
        var applied: Applied?
        if let member = fields.member("applied"), member != .null {
            let fields = JSONFields(member)
            applied = Applied(steer: try fields.number("steer", in: 0...Int64.max), at: try fields.number("at", in: -Self.timeLimit...Self.timeLimit),
                              outcome: try fields.text("outcome"))
        }
        self.init(venue: venue, kiosk: kiosk, version: version, reportInterval: try fields.number("reportInterval", in: 1...86_400),
                  wallClock: try fields.number("wallClock", in: 0...9_999_999_999_999_999),
                  lastRoundTripMs: try fields.optionalNumber("lastRoundTripMs", in: 0...86_400_000),
                  uptimeSeconds: try fields.optionalNumber("uptimeSeconds", in: 0...Int64.max),
                  status: try fields.word("status", as: Status.self), summary: try fields.text("summary"), daemon: daemon,
                  outputAgeSeconds: OutputAges(png: try ages.optionalNumber("png", in: 0...Int64.max),
                                               json: try ages.optionalNumber("json", in: 0...Int64.max),
                                               txt: try ages.optionalNumber("txt", in: 0...Int64.max)),
                  applied: applied)
    }

    /// The supported time range of docs/TOKEN.md (Unix seconds).
    static let timeLimit: Int64 = 1_000_000_000_000_000
}

/// Typed reads of an object's members, each failure naming the field.
struct JSONFields {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    func member(_ key: String) -> JSONValue? { value[key] }

    func string(_ key: String) throws(ReportFormatError) -> String {
        guard let text = value[key]?.string else { throw .malformed("\(key) is missing or not a string") }
        return text
    }

    func optionalString(_ key: String) throws(ReportFormatError) -> String? {
        guard let member = value[key], member != .null else { return nil }
        guard let text = member.string else { throw .malformed("\(key) is not a string") }
        return text
    }

    /// A string of at most `KioskReport.maximumTextLength` bytes and no control characters.
    func text(_ key: String) throws(ReportFormatError) -> String {
        let text = try string(key)
        try Self.check(text, key)
        return text
    }

    func optionalText(_ key: String) throws(ReportFormatError) -> String? {
        guard let text = try optionalString(key) else { return nil }
        try Self.check(text, key)
        return text
    }

    static func check(_ text: String, _ key: String) throws(ReportFormatError) {
        guard text.utf8.count <= KioskReport.maximumTextLength else { throw .malformed("\(key) is longer than \(KioskReport.maximumTextLength) bytes") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .malformed("\(key) holds a control character")
        }
    }

    func number(_ key: String, in range: ClosedRange<Int64>) throws(ReportFormatError) -> Int64 {
        guard let number = value[key]?.integer else { throw .malformed("\(key) is missing or not a whole number") }
        guard range.contains(number) else { throw .malformed("\(key) is out of range: \(number)") }
        return number
    }

    func optionalNumber(_ key: String, in range: ClosedRange<Int64>) throws(ReportFormatError) -> Int64? {
        guard let member = value[key], member != .null else { return nil }
        guard let number = member.integer else { throw .malformed("\(key) is not a whole number") }
        guard range.contains(number) else { throw .malformed("\(key) is out of range: \(number)") }
        return number
    }

    func optionalBool(_ key: String) throws(ReportFormatError) -> Bool? {
        guard let member = value[key], member != .null else { return nil }
        guard let flag = member.bool else { throw .malformed("\(key) is not true, false or null") }
        return flag
    }

    func word<Word: RawRepresentable>(_ key: String, as: Word.Type) throws(ReportFormatError) -> Word where Word.RawValue == String {
        guard let word = try optionalWord(key, as: Word.self) else { throw .malformed("\(key) is missing") }
        return word
    }

    func optionalWord<Word: RawRepresentable>(_ key: String, as: Word.Type) throws(ReportFormatError) -> Word? where Word.RawValue == String {
        guard let text = try optionalString(key) else { return nil }
        guard let word = Word(rawValue: text) else { throw .malformed("\(key) has an unknown value \(Quoted(text))") }
        return word
    }
}
