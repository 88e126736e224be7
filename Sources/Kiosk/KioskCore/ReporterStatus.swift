import SharedDomain
import SharedJSON

/// What the reporter tells the kiosk's other tools (`report.json` in its directory): whether
/// reports get through, since when they fail and why, and its counts. `status` shows it as
/// "Reporting  to URL: last ok 12s ago".
public struct ReporterStatus: Equatable, Sendable {
    /// The schema version; readers refuse documents they do not know.
    public static let schemaVersion: Int64 = 1
    /// The file's name in the reporter's directory.
    public static let fileName = "report.json"

    /// Where the reporter is.
    public enum Phase: String, Sendable {
        /// Started, nothing answered yet.
        case starting
        /// The last exchange was answered and verified.
        case reporting
        /// The last exchange failed; it tries again at `nextAttemptAt`.
        case failing
        /// It stopped (SIGTERM).
        case stopped
    }

    public var phase: Phase
    /// The server's base URL (`report-to`).
    public var reportTo: String
    public var venue: String
    public var kiosk: String
    /// The reporter's process id, to tell a dead reporter from a quiet one.
    public var pid: Int64
    /// Unix seconds this document was written.
    public var updatedAt: Int64
    /// Unix seconds of the last report sent, and of the last one answered and verified.
    public var lastAttemptAt: Int64?
    public var lastOkAt: Int64?
    /// Why the last exchange failed (nil after a success).
    public var lastError: String?
    /// Failures since the last success, and since when (Unix seconds).
    public var failuresInARow: Int64
    public var failingSince: Int64?
    /// Unix seconds of the next attempt when failing (backing off).
    public var nextAttemptAt: Int64?
    /// Reports sent, and of them failed, since the reporter started.
    public var sent: Int64
    public var failed: Int64
    /// The last round trip, milliseconds.
    public var lastRoundTripMs: Int64?
    /// The last console steer applied (kept across restarts: it is not applied twice).
    public var applied: KioskReport.Applied?

    /// A status.
    public init(phase: Phase, reportTo: String, venue: String, kiosk: String, pid: Int64, updatedAt: Int64,
                lastAttemptAt: Int64? = nil, lastOkAt: Int64? = nil, lastError: String? = nil, failuresInARow: Int64 = 0,
                failingSince: Int64? = nil, nextAttemptAt: Int64? = nil, sent: Int64 = 0, failed: Int64 = 0,
                lastRoundTripMs: Int64? = nil, applied: KioskReport.Applied? = nil) {
        self.phase = phase
        self.reportTo = reportTo
        self.venue = venue
        self.kiosk = kiosk
        self.pid = pid
        self.updatedAt = updatedAt
        self.lastAttemptAt = lastAttemptAt
        self.lastOkAt = lastOkAt
        self.lastError = lastError
        self.failuresInARow = failuresInARow
        self.failingSince = failingSince
        self.nextAttemptAt = nextAttemptAt
        self.sent = sent
        self.failed = failed
        self.lastRoundTripMs = lastRoundTripMs
        self.applied = applied
    }

    /// The document as JSON (docs/STATE.md, "report.json").
    public var json: JSONValue {
        func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        return .object([
            ("version", .number(Self.schemaVersion)),
            ("state", .string(phase.rawValue)),
            ("reportTo", .string(reportTo)),
            ("venue", .string(venue)),
            ("kiosk", .string(kiosk)),
            ("pid", .number(pid)),
            ("updatedAt", .number(updatedAt)),
            ("lastAttemptAt", optional(lastAttemptAt)),
            ("lastOkAt", optional(lastOkAt)),
            ("lastError", lastError.map(JSONValue.string) ?? .null),
            ("failuresInARow", .number(failuresInARow)),
            ("failingSince", optional(failingSince)),
            ("nextAttemptAt", optional(nextAttemptAt)),
            ("sent", .number(sent)),
            ("failed", .number(failed)),
            ("lastRoundTripMs", optional(lastRoundTripMs)),
            ("applied", applied.map { .object([("steer", .number($0.steer)), ("at", .number($0.at)), ("outcome", .string($0.outcome))]) } ?? .null),
        ])
    }

    /// Reads a document back (`status`, a restarted reporter); every field is checked.
    public init(parsing bytes: [UInt8]) throws(StateDocumentError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw StateDocumentError(message: error.description)
        }
        func field<T>(_ key: String, _ read: (JSONValue) -> T?) throws(StateDocumentError) -> T {
            guard let member = value[key], let typed = read(member) else {
                throw StateDocumentError(message: "field '\(key)' is missing or has the wrong type")
            }
            return typed
        }
        func optional<T>(_ key: String, _ read: (JSONValue) -> T?) throws(StateDocumentError) -> T? {
            guard let member = value[key], member != .null else { return nil }
            guard let typed = read(member) else { throw StateDocumentError(message: "field '\(key)' has the wrong type") }
            return typed
        }
        let version = try field("version", \.integer)
        guard version == Self.schemaVersion else {
            throw StateDocumentError(message: "unknown schema version \(version) (this qrcheckin reads \(Self.schemaVersion))")
        }
        var applied: KioskReport.Applied?
        if let member = value["applied"], member != .null {
            guard let steer = member["steer"]?.integer, let at = member["at"]?.integer, let outcome = member["outcome"]?.string else {
                throw StateDocumentError(message: "field 'applied' has the wrong type")
            }
            applied = KioskReport.Applied(steer: steer, at: at, outcome: outcome)
        }
        self.init(phase: try field("state") { $0.string.flatMap(Phase.init(rawValue:)) }, reportTo: try field("reportTo", \.string),
                  venue: try field("venue", \.string), kiosk: try field("kiosk", \.string), pid: try field("pid", \.integer),
                  updatedAt: try field("updatedAt", \.integer), lastAttemptAt: try optional("lastAttemptAt", \.integer),
                  lastOkAt: try optional("lastOkAt", \.integer), lastError: try optional("lastError", \.string),
                  failuresInARow: try field("failuresInARow", \.integer), failingSince: try optional("failingSince", \.integer),
                  nextAttemptAt: try optional("nextAttemptAt", \.integer), sent: try field("sent", \.integer),
                  failed: try field("failed", \.integer), lastRoundTripMs: try optional("lastRoundTripMs", \.integer), applied: applied)
        guard (0...Int64(Int32.max)).contains(pid) else { throw StateDocumentError(message: "field 'pid' is out of range: \(pid)") }
    }
}
