import ServerDomain
import ServerHTTPTypes
import ServerReports
import SharedDomain
import SharedText
import Synchronization

private typealias Label = PrometheusWriter.Label

/// The server's counters, in Prometheus text format at `/metrics` (the names docs/SERVER.md
/// lists): check-ins by venue and method, duplicates, refusals by reason, rate-limited tries,
/// ledger failures, responses by status and how long they took.
public final class ServerMetrics: HTTPObserver {
    /// Upper bounds (seconds) of the latency histogram's buckets.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
    /// The buckets' bounds as the exposition writes them (`1`, not `1.0`).
    static let bucketLabels = buckets.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
    /// Venues counted separately at most (bounded label sets; the rest add up under "other").
    static let venueLimit = 1000

    /// A venue (or "other") and a method.
    private struct VenueMethod: Hashable {
        let venue: String
        let method: CheckInMethod
    }

    private struct Counters {
        var checkIns: [VenueMethod: Int] = [:]
        var duplicates: [String: Int] = [:]
        var refusals: [RefusalReason: Int] = [:]
        var rateLimited = 0
        var ledgerFailures: [LedgerError.Kind: Int] = [:]
        var responses: [Int: Int] = [:]
        var latency = [Int](repeating: 0, count: ServerMetrics.buckets.count + 1)
        var latencySum = 0.0
        var venues: Set<String> = []
        var purged = PurgeReport(checkIns: 0, refusals: 0)
        var lastPurge: WallTime?
        var purgeFailures = 0
        /// Kiosk reports taken (`stored`) and refused, by the refusal's code.
        var kioskReports: [String: Int] = [:]
    }

    private let counters = Mutex(Counters())
    private let startedAt: WallTime
    /// Reads the live counts from the ledger at each scrape (nil when it cannot).
    private let live: (@Sendable () async -> LiveCounts?)?
    /// Reads the kiosks, judged now, at each scrape (nil when it cannot, or keeps none).
    private let kiosks: (@Sendable () async -> [KioskListing.Row]?)?

    /// Counters starting now; `live` gives the gauges of today's and the last hour's check-ins,
    /// `kiosks` the kiosks' states and silences.
    public init(startedAt: WallTime, live: (@Sendable () async -> LiveCounts?)? = nil,
                kiosks: (@Sendable () async -> [KioskListing.Row]?)? = nil) {
        self.startedAt = startedAt
        self.live = live
        self.kiosks = kiosks
    }

    /// Counts a kiosk's report: taken (nil) or refused, by the refusal's code (`bad-signature`).
    public func countKioskReport(_ refusal: KioskReportRefusal?) {
        counters.withLock { $0.kioskReports[refusal?.code ?? "stored", default: 0] += 1 }
    }

    /// Counts a purge of the retention service (what it deleted, or that it failed).
    public func countPurge(_ purge: RetentionService.Purge) {
        counters.withLock { counters in
            switch purge.result {
            case .success(let report):
                counters.purged = PurgeReport(checkIns: counters.purged.checkIns + report.checkIns,
                                              refusals: counters.purged.refusals + report.refusals)
                counters.lastPurge = purge.at
            case .failure:
                counters.purgeFailures += 1
            }
        }
    }

    /// Counts the outcome of a check-in attempt.
    func count(_ outcome: CheckInOutcome, method: CheckInMethod) {
        counters.withLock { counters in
            switch outcome {
            case .checkedIn(let checkIn):
                counters.checkIns[VenueMethod(venue: Self.venue(checkIn.venue, &counters.venues), method: method), default: 0] += 1
            case .alreadyCheckedIn(let checkIn):
                counters.duplicates[Self.venue(checkIn.venue, &counters.venues), default: 0] += 1
            case .refused(let reason, _):
                counters.refusals[reason, default: 0] += 1
            case .unavailable(let error):
                counters.ledgerFailures[error.kind, default: 0] += 1
            case .full:
                counters.refusals[.full, default: 0] += 1
            case .checkedOut, .noVisit:
                break
            case .needsVisitor:
                break
            }
        }
    }

    /// Counts a ledger failure outside a check-in (a receipt that could not be read).
    func countFailure(_ error: LedgerError) {
        counters.withLock { $0.ledgerFailures[error.kind, default: 0] += 1 }
    }

    /// Counts a try turned away by the rate limit.
    func countRateLimited() {
        counters.withLock { $0.rateLimited += 1 }
    }

    public func answered(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) {
        let bucket = Self.buckets.firstIndex { seconds <= $0 } ?? Self.buckets.count
        counters.withLock { counters in
            counters.responses[response.status, default: 0] += 1
            counters.latency[bucket] += 1
            counters.latencySum += seconds
        }
    }

    private static func venue(_ venue: VenueID, _ venues: inout Set<String>) -> String {
        if venues.contains(venue.rawValue) { return venue.rawValue }
        guard venues.count < venueLimit else { return "other" }
        venues.insert(venue.rawValue)
        return venue.rawValue
    }

    /// The Prometheus text exposition (through the shared `PrometheusWriter`).
    public func render() async -> String {
        let counters = counters.withLock { $0 }
        var out = PrometheusWriter()
        out.family("qrcheckin_server_start_time_seconds", .gauge, "When the server started, in Unix seconds.")
        out.sample("qrcheckin_server_start_time_seconds", .integer(startedAt.seconds))
        out.family("qrcheckin_server_checkins_total", .counter, "Check-ins recorded, by venue and method.")
        for (key, value) in counters.checkIns.sorted(by: { ($0.key.venue, $0.key.method.rawValue) < ($1.key.venue, $1.key.method.rawValue) }) {
            out.sample("qrcheckin_server_checkins_total", Label("venue", key.venue), Label("method", key.method.rawValue), .count(value))
        }
        out.family("qrcheckin_server_duplicates_total", .counter, "Scans of a device already checked in at the venue.")
        for (venue, value) in counters.duplicates.sorted(by: { $0.key < $1.key }) {
            out.sample("qrcheckin_server_duplicates_total", Label("venue", venue), .count(value))
        }
        out.family("qrcheckin_server_refusals_total", .counter, "Scans and safe numbers turned away, by reason.")
        for reason in RefusalReason.allCases {
            out.sample("qrcheckin_server_refusals_total", Label("reason", reason.rawValue), .count(counters.refusals[reason] ?? 0))
        }
        out.family("qrcheckin_server_rate_limited_total", .counter, "Safe-number tries turned away with 429.")
        out.sample("qrcheckin_server_rate_limited_total", .count(counters.rateLimited))
        out.family("qrcheckin_server_ledger_failures_total", .counter, "Ledger calls that failed (nothing acknowledged), by kind.")
        for (kind, value) in counters.ledgerFailures.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            out.sample("qrcheckin_server_ledger_failures_total", Label("kind", kind.rawValue), .count(value))
        }
        out.family("qrcheckin_server_responses_total", .counter, "HTTP responses, by status.")
        for (status, value) in counters.responses.sorted(by: { $0.key < $1.key }) {
            out.sample("qrcheckin_server_responses_total", Label("status", String(status)), .count(value))
        }
        out.family("qrcheckin_server_purged_total", .counter, "Rows the retention deleted since the server started, by table.")
        out.sample("qrcheckin_server_purged_total", Label("what", "checkins"), .count(counters.purged.checkIns))
        out.sample("qrcheckin_server_purged_total", Label("what", "refusals"), .count(counters.purged.refusals))
        out.family("qrcheckin_server_purge_failures_total", .counter, "Retention purges that failed (tried again within the hour).")
        out.sample("qrcheckin_server_purge_failures_total", .count(counters.purgeFailures))
        if let last = counters.lastPurge {
            out.family("qrcheckin_server_last_purge_time_seconds", .gauge, "When the retention last purged, in Unix seconds.")
            out.sample("qrcheckin_server_last_purge_time_seconds", .integer(last.seconds))
        }
        if let live, let counts = await live() { Self.write(counts, to: &out) }
        if let kiosks, let rows = await kiosks() { Self.write(rows, to: &out) }
        if !counters.kioskReports.isEmpty {
            out.family("qrcheckin_server_kiosk_reports_total", .counter, "Kiosk reports taken (stored) and refused, by outcome.")
            for (outcome, value) in counters.kioskReports.sorted(by: { $0.key < $1.key }) {
                out.sample("qrcheckin_server_kiosk_reports_total", Label("outcome", outcome), .count(value))
            }
        }
        out.family("qrcheckin_server_request_duration_seconds", .histogram, "Time from a request's last byte to its response.")
        var cumulative = 0
        for (index, bound) in Self.bucketLabels.enumerated() {
            cumulative += counters.latency[index]
            out.sample("qrcheckin_server_request_duration_seconds_bucket", Label("le", bound), .count(cumulative))
        }
        cumulative += counters.latency[Self.buckets.count]
        out.sample("qrcheckin_server_request_duration_seconds_bucket", Label("le", "+Inf"), .count(cumulative))
        out.sample("qrcheckin_server_request_duration_seconds_sum", .double(counters.latencySum))
        out.sample("qrcheckin_server_request_duration_seconds_count", .count(cumulative))
        return out.text
    }

    /// Kiosks written at most (a fleet larger than this is counted by state, its silences cut).
    static let kioskLimit = 10_000

    /// The kiosks' gauges (for alerting: a kiosk late or offline, or silent for long).
    private static func write(_ rows: [KioskListing.Row], to out: inout PrometheusWriter) {
        out.family("qrcheckin_server_kiosks", .gauge, "Kiosks reporting here, by state (ok, late, offline).")
        for state in KioskState.allCases {
            out.sample("qrcheckin_server_kiosks", Label("state", state.rawValue), .count(rows.filter { $0.verdict.state == state }.count))
        }
        out.family("qrcheckin_server_kiosk_last_report_seconds", .gauge, "Seconds since each kiosk's latest report.")
        for row in rows.prefix(kioskLimit) {
            out.sample("qrcheckin_server_kiosk_last_report_seconds", Label("venue", row.record.report.venue.rawValue),
                       Label("kiosk", row.record.report.kiosk.rawValue), .integer(row.verdict.silenceSeconds))
        }
    }

    /// The live gauges: from the ledger, so every server sharing a log reports the same.
    private static func write(_ counts: LiveCounts, to out: inout PrometheusWriter) {
        // As many venues as the counters label, the rest added up under "other".
        let listed = counts.venues.prefix(venueLimit)
        let rest = counts.venues.dropFirst(venueLimit)
        out.family("qrcheckin_server_checkins_today", .gauge, "Check-ins since local midnight in the log, by venue.")
        for venue in listed { out.sample("qrcheckin_server_checkins_today", Label("venue", venue.venue.rawValue), .count(venue.today)) }
        if !rest.isEmpty { out.sample("qrcheckin_server_checkins_today", Label("venue", "other"), .count(rest.reduce(0) { $0 + $1.today })) }
        out.family("qrcheckin_server_checkins_last_hour", .gauge, "Check-ins in the last hour in the log, by venue.")
        for venue in listed { out.sample("qrcheckin_server_checkins_last_hour", Label("venue", venue.venue.rawValue), .count(venue.lastHour)) }
        if !rest.isEmpty { out.sample("qrcheckin_server_checkins_last_hour", Label("venue", "other"), .count(rest.reduce(0) { $0 + $1.lastHour })) }
        out.family("qrcheckin_server_checkins_stored", .gauge, "Check-ins the log holds (everything the retention keeps).")
        out.sample("qrcheckin_server_checkins_stored", .count(counts.total))
        out.family("qrcheckin_server_inside", .gauge, "Open visits (who is inside now), by venue.")
        for venue in counts.presence { out.sample("qrcheckin_server_inside", Label("venue", venue.venue.rawValue), .count(venue.inside)) }
        out.family("qrcheckin_server_capacity", .gauge, "Visits a venue admits at once (capacity.VENUE), by venue.")
        for venue in counts.presence {
            if let capacity = venue.capacity { out.sample("qrcheckin_server_capacity", Label("venue", venue.venue.rawValue), .count(capacity)) }
        }
    }
}
