import CheckInDomain
import CheckInJSON

/// What `qrcheckin status` concludes from `current.json`, the clock and whether the daemon's
/// process is alive. Pure, so every verdict is unit-tested.
public struct StatusReport: Equatable, Sendable {
    /// The verdict, which is also the exit status.
    public enum Verdict: String, Sendable {
        /// Running (or paused on purpose) and current: exit 0.
        case running
        /// Running but degraded: exit 1.
        case degraded
        /// Not running, stopped, or its state is stale: exit 3.
        case notRunning = "not-running"

        /// The documented exit status.
        public var exitStatus: Int32 {
            switch self {
            case .running: 0
            case .degraded: 1
            case .notRunning: 3
            }
        }
    }

    public let verdict: Verdict
    /// One line explaining the verdict.
    public let summary: String
    /// Seconds until the code expires (0 when none).
    public let secondsLeft: Int64
    /// The document the verdict is about.
    public let document: StateDocument

    /// Judges `document` at `now`; `processAlive` says whether its `pid` still exists.
    public init(document: StateDocument, now: WallTime, processAlive: Bool) {
        self.document = document
        secondsLeft = document.secondsLeft(at: now)
        switch document.phase {
        case .stopped:
            (verdict, summary) = (.notRunning, "stopped: the daemon shut down")
        case _ where !processAlive:
            (verdict, summary) = (.notRunning, "not running: process \(document.pid) is gone")
        case .running where document.isExpired(at: now):
            (verdict, summary) = (.notRunning, "stale: the code expired \(now.seconds - (document.expiresAt ?? 0))s ago")
        case _ where document.health != "ok":
            (verdict, summary) = (.degraded, "degraded: \(document.reason ?? "unknown reason")")
        case .paused:
            (verdict, summary) = (.running, "paused by the operator")
        case .running:
            (verdict, summary) = (.running, "running")
        }
    }

    /// The countdown as the seed shows it: `남은 시간 7초` or `expires in 7s`.
    public static func countdown(_ seconds: Int64, korean: Bool) -> String {
        korean ? "남은 시간 \(seconds)초" : "expires in \(seconds)s"
    }

    /// A bar of `width` cells, full at `period` seconds left.
    public static func bar(secondsLeft: Int64, period: Int64, width: Int = 20) -> String {
        let filled = period > 0 ? Int((secondsLeft * Int64(width) + period - 1) / period) : 0
        let clamped = min(width, max(0, filled))
        return String(repeating: "█", count: clamped) + String(repeating: "░", count: width - clamped)
    }

    /// The human-readable report.
    public func text(korean: Bool, pngPath: String, pngAgeSeconds: Int64?) -> String {
        var lines = ["qrcheckin: venue \(document.venue): \(summary)"]
        func row(_ label: String, _ value: String) { lines.append("  " + label.padding(14) + value) }
        if document.phase == .running, let safeNumber = document.safeNumber {
            row(korean ? "개인안심번호" : "safe number", safeNumber)
            row(korean ? "남은 시간" : "countdown",
                Self.countdown(secondsLeft, korean: korean) + "  " + Self.bar(secondsLeft: secondsLeft, period: document.period))
            row("url", document.url ?? "")
        }
        row("shake", document.shake.rawValue)
        row("refresh", document.refresh.rawValue)
        row("png", pngPath + (pngAgeSeconds.map { " (updated \($0)s ago)" } ?? " (missing)"))
        row("health", document.health + (document.reason.map { ": \($0)" } ?? ""))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: the verdict, the countdown and the document itself.
    public func json(pngAgeSeconds: Int64?) -> JSONValue {
        .object([
            ("status", .string(verdict.rawValue)),
            ("exitStatus", .number(Int64(verdict.exitStatus))),
            ("summary", .string(summary)),
            ("secondsLeft", .number(secondsLeft)),
            ("pngAgeSeconds", pngAgeSeconds.map(JSONValue.number) ?? .null),
            ("state", document.json),
        ])
    }
}

extension String {
    /// Pads with spaces to `width` terminal columns (Hangul syllables take two), at least one.
    func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - DisplayWidth.of(self)))
    }
}
