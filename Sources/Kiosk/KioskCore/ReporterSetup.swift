import SharedDomain

/// What the reporter runs on: who it reports as, where to, how often.
public struct ReporterSetup: Sendable {
    /// The longest the server is asked to hold a report's answer (`?wait=`): below the idle
    /// timeouts of proxies and NATs on the way (nginx's 60 s, many NATs' 30 s).
    public static let maximumHoldSeconds = 25
    /// How long an exchange may take beyond the server's hold: connecting, TLS, sending,
    /// answering. An exchange that takes longer fails (timed out).
    public static let exchangeGraceSeconds = 5
    /// The longest pause between attempts while the server is unreachable.
    public static let maximumBackoffSeconds = 300

    public var venue: VenueID
    public var kiosk: KioskName
    /// The qrcheckin version sent in reports.
    public var version: String
    /// The server's base URL (`report-to`), without a trailing slash.
    public var reportTo: String
    /// Seconds between reports (`report-interval`).
    public var intervalSeconds: Int
    /// This process's id, for the status document.
    public var pid: Int32

    /// A setup; trailing slashes of `reportTo` are dropped.
    public init(venue: VenueID, kiosk: KioskName, version: String, reportTo: String, intervalSeconds: Int, pid: Int32) {
        self.venue = venue
        self.kiosk = kiosk
        self.version = version
        var base = reportTo
        while base.hasSuffix("/") { base.removeLast() }
        self.reportTo = base
        self.intervalSeconds = intervalSeconds
        self.pid = pid
    }

    /// Why `text` cannot be `report-to`, or nil when it can: an `http://` or `https://` URL
    /// (any case) with a host, no query, fragment, space or control character, at most 512 bytes.
    public static func problem(withReportTo text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return "must be an http:// or https:// URL (the check-in server's base, e.g. HTTPS://CHECKIN.EXAMPLE.ORG/C), or off"
        }
        guard text.utf8.count <= 512 else { return "is longer than 512 bytes" }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) else {
            return "must be plain ASCII with no space or control character (percent-encode the rest)"
        }
        guard !text.contains("?"), !text.contains("#") else { return "must not have a query or a fragment: reports go to BASE/VENUE/kiosk" }
        let rest = text.drop(while: { $0 != ":" }).dropFirst(3)
        guard let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty, host.first != "@" else {
            return "has no host"
        }
        return nil
    }

    /// How long the server is asked to hold each report's answer: the interval, at most 25 s.
    /// The next report follows the answer at once when something changed, else when the
    /// interval is due, so a console steer waits at most `interval - hold` seconds for a report
    /// to be open (none at 25 s and less; 5 s at the default 30 s) plus a round trip.
    public var holdSeconds: Int { min(Self.maximumHoldSeconds, intervalSeconds) }

    /// Where reports go: `BASE/VENUE/kiosk?wait=HOLD`.
    public var url: String { "\(reportTo)/\(venue.rawValue)/kiosk?wait=\(holdSeconds)" }

    /// The pause after `failures` failed attempts in a row: the interval, doubling, at most 5 min.
    public func backoffSeconds(failures: Int) -> Int {
        var delay = intervalSeconds
        for _ in 1..<max(1, failures) where delay < Self.maximumBackoffSeconds { delay *= 2 }
        return min(delay, Self.maximumBackoffSeconds)
    }
}

/// Port: fresh nonces (the OS's CSPRNG in the shell; a counter in tests).
public protocol ReportNonceSource: Sendable {
    /// A nonce never returned before.
    func next() -> ReportNonce
}

/// A moment as the reporter's core sees it: the monotonic clock for its intervals and
/// timeouts (setting the wall clock moves no deadline), the wall clock for what it reports.
public struct ReporterTime: Equatable, Sendable {
    /// CLOCK_MONOTONIC, milliseconds.
    public var monotonic: Int64
    /// The wall clock.
    public var wall: WallTime

    /// A moment.
    public init(monotonic: Int64, wall: WallTime) {
        self.monotonic = monotonic
        self.wall = wall
    }
}
