import KioskCore
import SharedDomain
import SharedJSON
import SharedText

/// What `qrcheckin status` concludes from `current.json`, the clock and whether the daemon's
/// process is alive. Pure, so every verdict is unit-tested.
public struct StatusReport: Equatable, Sendable {
    /// The verdict, which is also the exit status.
    public enum Verdict: String, Sendable {
        /// Running (or paused on purpose) and current: exit 0.
        case running
        /// Running but degraded: exit 1.
        case degraded
        /// Running but holding codes back until the clock is synchronised: exit 1.
        case waiting
        /// Not running, stopped, or its state is stale: exit 3.
        case notRunning = "not-running"

        /// The documented exit status.
        public var exitStatus: Int32 {
            switch self {
            case .running: 0
            case .degraded, .waiting: 1
            case .notRunning: 3
            }
        }
    }

    /// Why the verdict is what it is; its words come from `Vocabulary.summary`.
    public enum Cause: Equatable, Sendable {
        case stopped
        case processGone(pid: Int64)
        /// The control socket exists but refuses connections (ECONNREFUSED): nobody listens,
        /// so the daemon is gone even if its pid is still a zombie or was reused.
        case socketRefused
        case expired(secondsAgo: Int64)
        case degraded(reason: String)
        case paused
        /// `require-clock-sync`: no code until the clock is synchronised.
        case waitingForClock
        case running
    }

    public let verdict: Verdict
    /// Why.
    public let cause: Cause
    /// One line explaining the verdict, in English (as `--json` prints it).
    public var summary: String { Vocabulary(.en).summary(cause, change: document.modeChange, clock: clock) }
    /// The moment of the report and the local time zone, for the time a mode was changed.
    public let clock: LocalClock
    /// Seconds until the code expires (0 when none).
    public let secondsLeft: Int64
    /// The document the verdict is about.
    public let document: StateDocument

    /// Judges `document` at `now`; `processAlive` says whether its `pid` still exists and
    /// `socketRefused` whether its control socket refused a connection.
    public init(document: StateDocument, now: WallTime, processAlive: Bool, socketRefused: Bool = false, offsetSeconds: Int = 0) {
        self.document = document
        clock = LocalClock(now: now.seconds, offsetSeconds: offsetSeconds)
        secondsLeft = document.secondsLeft(at: now)
        switch document.phase {
        case .stopped:
            (verdict, cause) = (.notRunning, .stopped)
        case _ where !processAlive:
            (verdict, cause) = (.notRunning, .processGone(pid: document.pid))
        case _ where socketRefused:
            (verdict, cause) = (.notRunning, .socketRefused)
        case .running where document.isExpired(at: now):
            (verdict, cause) = (.notRunning, .expired(secondsAgo: now.seconds - (document.expiresAt ?? 0)))
        case _ where document.health != "ok":
            (verdict, cause) = (.degraded, .degraded(reason: document.reason ?? "unknown reason"))
        case .paused:
            (verdict, cause) = (.running, .paused)
        case .waiting:
            (verdict, cause) = (.waiting, .waitingForClock)
        case .running:
            (verdict, cause) = (.running, .running)
        }
    }

    /// A bar of `width` cells, full at `period` seconds left.
    public static func bar(secondsLeft: Int64, period: Int64, width: Int = 20) -> String {
        let filled = period > 0 ? Int((secondsLeft * Int64(width) + period - 1) / period) : 0
        let clamped = min(width, max(0, filled))
        return String(repeating: "█", count: clamped) + String(repeating: "░", count: width - clamped)
    }

    /// The human-readable report, every label in `language`; `reporting` is the reporter's
    /// status when one reports this daemon (`qrcheckin report`).
    public func text(language: Language, pngPath: String, pngAgeSeconds: Int64?, reporting: ReportingSummary? = nil) -> String {
        let words = Vocabulary(language)
        var lines = ["qrcheckin: \(words.venueLabel) \(document.venue): \(words.summary(cause, change: document.modeChange, clock: clock))"]
        let labels = [words.safeNumberLabel, words.countdown(0).label, words.urlLabel, words.modesLabel,
                      words.pngLabel, words.healthLabel] + (reporting == nil ? [] : [words.reportingLabel])
        let width = labels.map { DisplayWidth.of($0) }.max()! + 2
        func row(_ label: String, _ value: String) { lines.append("  " + label.padding(width) + value) }
        if document.phase == .running, let safeNumber = document.safeNumber {
            let countdown = words.countdown(secondsLeft)
            row(words.safeNumberLabel, safeNumber)
            row(countdown.label, countdown.seconds + "  " + Self.bar(secondsLeft: secondsLeft, period: document.period))
            row(words.urlLabel, document.url ?? "")
        }
        row(words.modesLabel, words.modes(shake: document.shake, refresh: document.refresh)
            + (document.modeChange.map { " (" + words.modeChange($0, clock: clock) + ")" } ?? ""))
        row(words.pngLabel, pngPath + " " + words.fileAge(pngAgeSeconds))
        // A report nobody keeps current cannot vouch for the daemon's health.
        row(words.healthLabel, verdict == .notRunning
            ? words.healthUnknown : words.health(document.health, reason: document.reason))
        if let reporting { row(words.reportingLabel, reporting.text(words)) }
        // A warning, not a verdict: codes from an unsynchronised clock may be rejected at the door.
        if verdict != .notRunning, document.clockUnsynchronized {
            lines.append("  " + words.warning(words.clockUnsynchronized(maxErrorSeconds: document.clock?.maxErrorSeconds)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: the verdict, the countdown, the document itself, and the reporter's
    /// status when there is one.
    public func json(pngAgeSeconds: Int64?, reporting: ReportingSummary? = nil) -> JSONValue {
        .object([
            ("status", .string(verdict.rawValue)),
            ("exitStatus", .number(Int64(verdict.exitStatus))),
            ("summary", .string(summary)),
            ("secondsLeft", .number(secondsLeft)),
            ("pngAgeSeconds", pngAgeSeconds.map(JSONValue.number) ?? .null),
            ("state", document.json),
        ] + (reporting.map { [("reporting", $0.json)] } ?? []))
    }
}

extension String {
    /// Pads with spaces to `width` terminal columns (Hangul syllables take two), at least one.
    func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - DisplayWidth.of(self)))
    }
}
