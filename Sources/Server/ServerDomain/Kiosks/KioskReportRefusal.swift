import SharedDomain

/// Why the server refused a kiosk's report (docs/TOKEN.md, "Kiosk reports"): answered as an
/// RFC 9457 problem, and recorded nowhere.
public enum KioskReportRefusal: Error, Sendable, Equatable {
    /// The body is over `KioskReport.maximumBodyBytes` (413).
    case tooLarge
    /// No `Qrcheckin-Report` header (401).
    case unsigned
    /// The header is not of the format (400).
    case malformedSignature(String)
    /// This server has no report key for the venue: it does not serve it, or its key is
    /// another venue's (401).
    case unknownVenue
    /// The MAC is not the venue's report key's over this report: another venue's key, a forged
    /// signature, an altered body (401).
    case badSignature
    /// The signed time is further than 5 minutes from the server's clock (400); milliseconds
    /// off, positive when the kiosk is ahead.
    case stale(offsetMilliseconds: Int64)
    /// The body is signed but not a report, or not this venue's, or its `wallClock` is not the
    /// signature's time (400).
    case malformed(String)
    /// This kiosk reported more often than its budget (429); seconds until it may again.
    case tooMany(retryAfterSeconds: Int64)
    /// The nonce was seen within the window: a copy of an earlier report (409).
    case replayed
    /// The ledger cannot take the report now (503).
    case unavailable(LedgerError)

    /// The HTTP status it is answered with.
    public var status: Int {
        switch self {
        case .tooLarge: 413
        case .unsigned, .unknownVenue, .badSignature: 401
        case .malformedSignature, .stale, .malformed: 400
        case .tooMany: 429
        case .replayed: 409
        case .unavailable: 503
        }
    }

    /// The problem's `title`: one line, the same for every report refused for this reason.
    public var title: String {
        switch self {
        case .tooLarge: "the report is too large"
        case .unsigned: "the report is not signed"
        case .malformedSignature: "the report's signature header is malformed"
        case .unknownVenue: "this server has no report key for this venue"
        case .badSignature: "the report's signature is not this venue's report key's"
        case .stale: "the report's time is too far from the server's clock"
        case .malformed: "the report is malformed"
        case .tooMany: "too many reports from this kiosk"
        case .replayed: "this report was received before"
        case .unavailable: "the server cannot store reports now"
        }
    }

    /// The problem's `detail`: what exactly (never anything of a visitor's, never a key).
    public var detail: String {
        switch self {
        case .tooLarge: "a report's body is at most \(KioskReport.maximumBodyBytes) bytes"
        case .unsigned: "a report carries a \(ReportSignature.headerName) header (docs/TOKEN.md)"
        case .malformedSignature(let why), .malformed(let why): why
        case .unknownVenue: "the venue is not served here, or the server's key is another venue's"
        case .badSignature: "another venue's key, a forged signature or an altered body"
        case .stale(let offset):
            "the kiosk's clock is \(abs(offset) / 1000) s \(offset > 0 ? "ahead of" : "behind") the server's; at most \(ReportReplayWindow.defaultToleranceMilliseconds / 60_000) minutes are accepted"
        case .tooMany(let seconds): "try again in \(seconds) s"
        case .replayed: "each report has a nonce of its own; a copy is refused"
        case .unavailable: "the ledger does not answer; try again shortly"
        }
    }

    /// A short name for the metrics and the type URI (`bad-signature`).
    public var code: String {
        switch self {
        case .tooLarge: "too-large"
        case .unsigned: "unsigned"
        case .malformedSignature: "malformed-signature"
        case .unknownVenue: "unknown-venue"
        case .badSignature: "bad-signature"
        case .stale: "stale"
        case .malformed: "malformed"
        case .tooMany: "too-many"
        case .replayed: "replayed"
        case .unavailable: "unavailable"
        }
    }
}
