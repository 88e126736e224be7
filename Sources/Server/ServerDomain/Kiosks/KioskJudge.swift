import SharedDomain

/// Judges kiosks from their latest reports at a given moment: pure, on times it is handed, so
/// an hour of silence tests in microseconds. What "late", "offline" and each problem mean is
/// decided here and nowhere else (the console, `kiosks`, the metrics and the offline warning
/// all ask it).
public struct KioskJudge: Sendable {
    /// Silence after which a kiosk is offline, whatever its interval (10 minutes).
    public static let standardOfflineAfterSeconds: Int64 = 600
    /// How far a kiosk's clock may be from the server's, beyond the reading's bound, before it
    /// is a problem: NTP keeps clocks within milliseconds, and a code window is 15 s.
    public static let clockToleranceMilliseconds: Int64 = 2000
    /// How old the daemon's state may be when the reporter reads it (once a second).
    static let observationMilliseconds: Int64 = 1000

    /// The venues' periods and skews, as the server verifies codes.
    public let venues: VenueDirectory
    /// The server's own qrcheckin version: a kiosk reporting an older one is told.
    public let serverVersion: String
    /// Seconds of silence after which a kiosk is offline (`kiosk-offline-after`).
    public let offlineAfterSeconds: Int64

    /// A judge of kiosks of `venues`, against `serverVersion`.
    public init(venues: VenueDirectory, serverVersion: String, offlineAfterSeconds: Int64 = standardOfflineAfterSeconds) {
        self.venues = venues
        self.serverVersion = serverVersion
        self.offlineAfterSeconds = offlineAfterSeconds
    }

    /// The verdict on `record` at `now` (the server's clock).
    public func verdict(on record: KioskRecord, at now: WallTime) -> KioskVerdict {
        let report = record.report
        let silence = max(0, now.milliseconds - record.receivedAt.milliseconds) / 1000
        let state: KioskState = if silence >= max(offlineAfterSeconds, 2 * report.reportInterval) {
            .offline
        } else if silence > 2 * report.reportInterval {
            .late
        } else {
            .ok
        }
        let clock = ClockReading(skewMilliseconds: report.wallClock - record.receivedAt.milliseconds, boundMilliseconds: report.lastRoundTripMs)
        let profile = venues.profile(for: report.venue)
        let expected = profile.map { record.receivedAt.milliseconds.floorDivided(by: Int64($0.period.seconds) * 1000) }
        return KioskVerdict(state: state, problems: problems(of: record, clock: clock, profile: profile), clock: clock,
                            expectedWindow: expected, silenceSeconds: silence)
    }

    /// What the report shows is wrong, the most urgent first: nothing on screen, a code that
    /// scans refuse, the clock, the modes, the health, the version.
    func problems(of record: KioskRecord, clock: ClockReading, profile: VenueProfile?) -> [KioskProblem] {
        let report = record.report
        var found: [KioskProblem] = []
        switch report.status {
        case .notRunning: found.append(.notRunning)
        case .waiting: found.append(.waiting)
        case .running, .degraded: break
        }
        if let daemon = report.daemon {
            if let profile, daemon.state == .running, let window = daemon.window, daemon.period == Int64(profile.period.seconds) {
                found += codeProblems(window: window, period: daemon.period * 1000, skew: Int64(profile.skew), record: record)
            }
            if let profile, daemon.period != Int64(profile.period.seconds) {
                found.append(.period(kiosk: daemon.period, server: Int64(profile.period.seconds)))
            }
        }
        let slack = (clock.boundMilliseconds ?? 0) + Self.clockToleranceMilliseconds
        if abs(clock.skewMilliseconds) > slack { found.append(.clock(seconds: clock.seconds)) }
        if let daemon = report.daemon {
            if daemon.clockSynchronized == false { found.append(.notSynchronized) }
            if daemon.refresh == .paused || daemon.state == .paused { found.append(.paused) }
            if daemon.health != "ok" { found.append(.degraded(reason: daemon.reason)) }
        }
        if Self.isOlder(report.version, than: serverVersion) { found.append(.oldVersion(report.version)) }
        return found
    }

    /// Whether the window on screen would be refused by the server's verifier at receipt: its
    /// last accepted moment (its end plus `skew` windows) is before the arrival minus what the
    /// trip and the reporter's once-a-second look explain, or its first accepted moment after
    /// the arrival plus the same.
    func codeProblems(window: Int64, period: Int64, skew: Int64, record: KioskRecord) -> [KioskProblem] {
        let slack = (record.report.lastRoundTripMs ?? 0) + Self.observationMilliseconds
        let arrival = record.receivedAt.milliseconds
        let serverWindow = arrival.floorDivided(by: period)
        if (window + 1 + skew).multipliedReportingOverflow(by: period).partialValue < arrival - slack {
            return [.expiredCode(windows: serverWindow - window)]
        }
        if (window - skew).multipliedReportingOverflow(by: period).partialValue > arrival + slack {
            return [.futureCode(windows: window - serverWindow)]
        }
        return []
    }

    /// Whether `version` is older than `reference`, comparing their dot-separated numbers
    /// (`0.1.0` < `0.2.0` < `0.10.0`); a version whose numbers cannot be read is not judged.
    static func isOlder(_ version: String, than reference: String) -> Bool {
        func numbers(_ text: String) -> [Int]? {
            let core = text.split(separator: "-", maxSplits: 1).first.map(String.init) ?? text
            let parts = core.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            return parts.map { $0! }
        }
        guard let mine = numbers(version), let theirs = numbers(reference) else { return false }
        for index in 0..<max(mine.count, theirs.count) {
            let a = index < mine.count ? mine[index] : 0
            let b = index < theirs.count ? theirs[index] : 0
            if a != b { return a < b }
        }
        return false
    }
}

extension Int64 {
    /// The quotient rounded toward minus infinity (a window before 1970 is still a window).
    func floorDivided(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
