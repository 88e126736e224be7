import SharedDomain
import SharedJSON

/// `current.json`: the daemon's state as readers see it (schema in docs/STATE.md).
///
/// Written by the daemon after the PNG and the text, so a reader that sees a new document can
/// rely on the image beside it being at least as new. Readers (`status`, `show`, web pages)
/// parse it back with `init(parsing:)`.
public struct StateDocument: Equatable, Sendable {
    /// The schema version; readers refuse documents they do not know.
    public static let schemaVersion: Int64 = 1
    /// How long past `expiresAt` a running document may stand before it counts as stale.
    public static let staleGraceSeconds: Int64 = 5

    /// `running`, `paused`, `waiting` (for the clock to synchronise) or `stopped`.
    public enum Phase: String, Sendable {
        case running, paused, waiting, stopped
    }

    public var phase: Phase
    public var venue: String
    /// The check-in URL in the QR (nil unless running).
    public var url: String?
    public var token: String?
    public var safeNumber: String?
    public var window: Int64?
    public var sequence: Int64?
    /// Unix seconds the code became valid / stops being shown.
    public var issuedAt: Int64?
    public var expiresAt: Int64?
    public var period: Int64
    public var shake: ShakeMode
    public var refresh: RefreshMode
    /// Who set a mode last, from where and when (nil: nobody yet, or a document from before
    /// changes were recorded).
    public var modeChange: ModeChange?
    /// `ok` or `degraded`.
    public var health: String
    /// Why degraded (nil when ok).
    public var reason: String?
    /// Unix seconds this document was written.
    public var updatedAt: Int64
    /// The daemon's process id, to tell a crashed daemon from a running one.
    public var pid: Int64
    /// The clock's synchronisation (nil in documents from before it was reported).
    public var clock: ClockSync?

    /// The document for a view-model state.
    public init(state: CheckInState, venue: VenueID, period: RotationPeriod, pid: Int32) {
        switch state.phase {
        case .showing: phase = .running
        case .paused: phase = .paused
        case .stopped: phase = .stopped
        case .waitingForClock: phase = .waiting
        }
        self.venue = venue.rawValue
        let code = state.code
        url = code?.url
        token = code?.token
        safeNumber = code?.safeNumber
        window = code?.window
        sequence = code.map { Int64($0.sequence) }
        issuedAt = code?.issuedAt
        expiresAt = code?.expiresAt
        self.period = Int64(period.seconds)
        shake = state.settings.shake
        refresh = state.settings.refresh
        modeChange = state.settings.change
        health = state.health.name
        reason = state.health.reason
        updatedAt = state.updatedAt.seconds
        self.pid = Int64(pid)
        // Whole seconds, as the document writes them: a parsed document equals this one.
        clock = ClockSync(synchronized: state.clock.synchronized, maxErrorMicroseconds: state.clock.maxErrorSeconds.map { $0 * 1_000_000 })
    }

    /// Whether the document says the clock is not synchronised: the warning readers show.
    public var clockUnsynchronized: Bool { clock?.isUnsynchronized ?? false }

    /// Whole seconds until the shown code expires (0 when none is shown or it has expired).
    public func secondsLeft(at now: WallTime) -> Int64 {
        expiresAt.map(now.secondsUntil) ?? 0
    }

    /// Whether a running document's code expired more than the grace period before `now`:
    /// the daemon is not keeping it current (docs/STATE.md). `status` and `show` agree on it.
    public func isExpired(at now: WallTime) -> Bool {
        phase == .running && now.seconds > (expiresAt ?? 0) + Self.staleGraceSeconds
    }

    /// `json`, serialised, written straight into one buffer (a byte template: the keys are
    /// fixed, only the values vary): the daemon writes it with every rotation.
    public var bytes: [UInt8] {
        let strings = [venue, url ?? "", token ?? "", safeNumber ?? "", health, reason ?? "", modeChange?.by?.rawValue ?? ""]
        let room = 400 + strings.reduce(0) { $0 + ByteCursor.maximumJSONLength(of: $1) } + 10 * ByteCursor.maximumDecimalLength
        var out = [UInt8]()
        out.append(capacity: room) { out in
            func string(_ value: String?) {
                if let value { out.write(jsonString: value) } else { out.write("null") }
            }
            func number(_ value: Int64?) {
                if let value { out.write(value) } else { out.write("null") }
            }
            out.write("{\"version\":")
            out.write(Self.schemaVersion)
            out.write(",\"state\":")
            out.write(jsonString: phase.rawValue)
            out.write(",\"venue\":")
            out.write(jsonString: venue)
            out.write(",\"url\":")
            string(url)
            out.write(",\"token\":")
            string(token)
            out.write(",\"safeNumber\":")
            string(safeNumber)
            out.write(",\"window\":")
            number(window)
            out.write(",\"seq\":")
            number(sequence)
            out.write(",\"issuedAt\":")
            number(issuedAt)
            out.write(",\"expiresAt\":")
            number(expiresAt)
            out.write(",\"period\":")
            out.write(period)
            out.write(",\"shake\":")
            out.write(jsonString: shake.rawValue)
            out.write(",\"refresh\":")
            out.write(jsonString: refresh.rawValue)
            out.write(",\"modeSource\":")
            string(modeChange?.source.rawValue)
            out.write(",\"modeChangedBy\":")
            string(modeChange?.by?.rawValue)
            out.write(",\"modeChangedAt\":")
            number(modeChange?.at)
            out.write(",\"health\":")
            out.write(jsonString: health)
            out.write(",\"reason\":")
            string(reason)
            out.write(",\"updatedAt\":")
            out.write(updatedAt)
            out.write(",\"pid\":")
            out.write(pid)
            if let clock {
                out.write(",\"clock\":{\"synchronized\":")
                if let synchronized = clock.synchronized { out.write(synchronized ? "true" : "false") } else { out.write("null") }
                out.write(",\"maxErrorSeconds\":")
                number(clock.maxErrorSeconds)
                out.write(byte: UInt8(ascii: "}"))
            }
            out.write(byte: UInt8(ascii: "}"))
        }
        return out
    }

    /// The JSON object, keys in schema order.
    public var json: JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        return .object([
            ("version", .number(Self.schemaVersion)),
            ("state", .string(phase.rawValue)),
            ("venue", .string(venue)),
            ("url", optional(url)),
            ("token", optional(token)),
            ("safeNumber", optional(safeNumber)),
            ("window", optional(window)),
            ("seq", optional(sequence)),
            ("issuedAt", optional(issuedAt)),
            ("expiresAt", optional(expiresAt)),
            ("period", .number(period)),
            ("shake", .string(shake.rawValue)),
            ("refresh", .string(refresh.rawValue)),
            ("modeSource", optional(modeChange?.source.rawValue)),
            ("modeChangedBy", optional(modeChange?.by?.rawValue)),
            ("modeChangedAt", optional(modeChange?.at)),
            ("health", .string(health)),
            ("reason", optional(reason)),
            ("updatedAt", .number(updatedAt)),
            ("pid", .number(pid)),
        ] + (clock.map { clock in
            // Absent only in documents read back from a daemon that did not report it.
            [("clock", JSONValue.object([
                ("synchronized", clock.synchronized.map(JSONValue.bool) ?? .null),
                ("maxErrorSeconds", optional(clock.maxErrorSeconds)),
            ]))]
        } ?? []))
    }

    /// Parses `current.json`; every field is checked so a reader never acts on half a document.
    public init(parsing bytes: [UInt8]) throws(StateDocumentError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw StateDocumentError(message: error.description)
        }
        try self.init(value: value)
    }

    /// Reads a state already parsed (a control reply's `state`), with the same checks.
    public init(value: JSONValue) throws(StateDocumentError) {
        func field<T>(_ key: String, _ read: (JSONValue) -> T?) throws(StateDocumentError) -> T {
            guard let member = value[key], let typed = read(member) else {
                throw StateDocumentError(message: "field '\(key)' is missing or has the wrong type")
            }
            return typed
        }
        func optional<T>(_ key: String, _ read: (JSONValue) -> T?) throws(StateDocumentError) -> T? {
            guard let member = value[key], member != .null else { return nil }
            guard let typed = read(member) else {
                throw StateDocumentError(message: "field '\(key)' has the wrong type")
            }
            return typed
        }
        let version = try field("version", \.integer)
        guard version == Self.schemaVersion else {
            throw StateDocumentError(message: "unknown schema version \(version) (this qrcheckin reads \(Self.schemaVersion))")
        }
        phase = try field("state") { $0.string.flatMap(Phase.init(rawValue:)) }
        venue = try field("venue", \.string)
        url = try optional("url", \.string)
        token = try optional("token", \.string)
        safeNumber = try optional("safeNumber", \.string)
        window = try optional("window", \.integer)
        sequence = try optional("seq", \.integer)
        issuedAt = try optional("issuedAt", \.integer)
        expiresAt = try optional("expiresAt", \.integer)
        period = try field("period", \.integer)
        shake = try field("shake") { $0.string.flatMap(ShakeMode.init(rawValue:)) }
        refresh = try field("refresh") { $0.string.flatMap(RefreshMode.init(rawValue:)) }
        // Absent in documents of a daemon from before changes were recorded.
        if let source = try optional("modeSource", { $0.string.flatMap(ModeSource.init(rawValue:)) }) {
            let by = try optional("modeChangedBy", \.string)
            guard by.map({ OperatorName($0) != nil }) ?? true else {
                throw StateDocumentError(message: "field 'modeChangedBy' is not an operator's name")
            }
            modeChange = ModeChange(source: source, by: by.flatMap(OperatorName.init), at: try field("modeChangedAt", \.integer))
        } else {
            modeChange = nil
        }
        health = try field("health", \.string)
        reason = try optional("reason", \.string)
        updatedAt = try field("updatedAt", \.integer)
        pid = try field("pid", \.integer)
        if let member = value["clock"], member != .null {
            guard case .object = member,
                  member["synchronized"].map({ $0 == .null || $0.bool != nil }) ?? true,
                  member["maxErrorSeconds"].map({ $0 == .null || ($0.integer.map { (0...1_000_000).contains($0) } ?? false) }) ?? true
            else { throw StateDocumentError(message: "field 'clock' has the wrong type") }
            clock = ClockSync(synchronized: member["synchronized"]?.bool,
                              maxErrorMicroseconds: member["maxErrorSeconds"]?.integer.map { $0 * 1_000_000 })
        } else {
            clock = nil
        }
        // Times a reader will do arithmetic with must be sane; a hostile or corrupt file must
        // not be able to overflow (and crash) `status` or the kiosk.
        let plausible: ClosedRange<Int64> = -1_000_000_000_000...1_000_000_000_000
        for (key, time) in [("issuedAt", issuedAt), ("expiresAt", expiresAt), ("window", window), ("modeChangedAt", modeChange?.at)] {
            if let time, !plausible.contains(time) { throw StateDocumentError(message: "field '\(key)' is out of range: \(time)") }
        }
        guard plausible.contains(updatedAt) else { throw StateDocumentError(message: "field 'updatedAt' is out of range: \(updatedAt)") }
        guard (1...3600).contains(period) else { throw StateDocumentError(message: "field 'period' is out of range: \(period)") }
        guard (0...Int64(Int32.max)).contains(pid) else { throw StateDocumentError(message: "field 'pid' is out of range: \(pid)") }
        if phase == .running && (url == nil || safeNumber == nil || expiresAt == nil || issuedAt == nil) {
            throw StateDocumentError(message: "a running state needs url, safeNumber, issuedAt and expiresAt")
        }
    }
}

/// `current.json` could not be read as a state document.
public struct StateDocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the document.
    public let message: String
    public var description: String { message }
}
