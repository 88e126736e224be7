import SharedJSON
import SharedText

/// `qrcheckin status --all`: one line per venue on the host (venue, safe number, countdown,
/// modes, health), in the words `status` and the kiosk use, and the verdict over all of them.
/// Pure, so the layout and the verdict are unit-tested.
public struct VenueStatusTable: Sendable {
    /// One venue's line: its report, or why there is none (no state at all).
    public struct Row: Sendable {
        /// The venue id; nil when neither its directory nor a state names it.
        public let venue: String?
        /// Where its daemon writes (shown in JSON).
        public let outputDirectory: String
        /// The verdict on its state; nil when there is no state to judge.
        public let report: StatusReport?
        /// Why there is no report (English, as `status` says it), when `report` is nil.
        public let missing: String?
        /// Seconds since its `current.png` was written, when it exists.
        public let pngAgeSeconds: Int64?

        /// A venue with a report.
        public init(venue: String?, outputDirectory: String, report: StatusReport, pngAgeSeconds: Int64?) {
            self.venue = venue ?? report.document.venue
            self.outputDirectory = outputDirectory
            self.report = report
            self.missing = nil
            self.pngAgeSeconds = pngAgeSeconds
        }

        /// A venue whose daemon left no state to read.
        public init(venue: String?, outputDirectory: String, missing: String) {
            self.venue = venue
            self.outputDirectory = outputDirectory
            self.report = nil
            self.missing = missing
            self.pngAgeSeconds = nil
        }

        /// This line's verdict: a venue without a state is not running.
        public var verdict: StatusReport.Verdict { report?.verdict ?? .notRunning }
    }

    /// The lines, in the order found.
    public let rows: [Row]
    /// Where venues were looked for (named when none was found).
    public let searched: [String]

    /// A table of `rows`, found by searching `searched`.
    public init(rows: [Row], searched: [String]) {
        self.rows = rows
        self.searched = searched
    }

    /// The worst line's verdict (not running, then degraded, then waiting, then running); not running when
    /// no venue was found at all.
    public var verdict: StatusReport.Verdict {
        if rows.isEmpty || rows.contains(where: { $0.verdict == .notRunning }) { return .notRunning }
        if rows.contains(where: { $0.verdict == .degraded }) { return .degraded }
        // Waiting for the clock is exit 1 for one venue's status; it must not read as all fine.
        return rows.contains(where: { $0.verdict == .waiting }) ? .waiting : .running
    }

    /// One English line: how many venues are in which state, or where none was found.
    public var summary: String {
        guard !rows.isEmpty else { return "no venue found in " + searched.joined(separator: ", ") }
        let counts = [StatusReport.Verdict.running, .waiting, .degraded, .notRunning].compactMap { verdict -> String? in
            let count = rows.filter { $0.verdict == verdict }.count
            return count == 0 ? nil : "\(count) \(verdict.rawValue)"
        }
        return "\(rows.count) venue\(rows.count == 1 ? "" : "s"): " + counts.joined(separator: ", ")
    }

    /// The lines in `language`, columns aligned by display width (Hangul takes two columns).
    public func text(language: Language) -> String {
        guard !rows.isEmpty else { return "qrcheckin: \(summary)\n" }
        let words = Vocabulary(language)
        let cells = rows.map { columns(of: $0, words) }
        let widths = (0..<5).map { column in cells.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return cells.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell) + 2)
            }
            return String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
        }.joined()
    }

    /// venue, safe number (or the state's title), countdown, modes, health.
    private func columns(of row: Row, _ words: Vocabulary) -> [String] {
        let venue = row.venue ?? "-"
        guard let report = row.report else {
            return [venue, words.notRunningTitle, "", "", row.missing ?? ""]
        }
        let document = report.document
        let modes = words.modes(shake: document.shake, refresh: document.refresh)
        switch report.cause {
        case .running, .degraded:
            guard document.phase == .running, let safeNumber = document.safeNumber else {
                return [venue, words.pausedTitle, "", modes, words.health(document.health, reason: document.reason)]
            }
            let countdown = words.countdown(report.secondsLeft)
            return [venue, "\(words.safeNumberLabel) \(safeNumber)", "\(countdown.label) \(countdown.seconds)", modes,
                    words.health(document.health, reason: document.reason)]
        case .paused:
            return [venue, words.pausedTitle, "", modes, words.health(document.health, reason: document.reason)]
        case .waitingForClock:
            return [venue, words.waitingTitle, "", modes, words.summary(report.cause)]
        case .stopped:
            return [venue, words.notRunningTitle, "", modes, words.summary(report.cause)]
        case .processGone, .socketRefused, .expired:
            return [venue, words.staleTitle, "", modes, words.summary(report.cause)]
        }
    }

    /// `{status, exitStatus, summary, venues: [{venue, outputDirectory, report}]}`, where each
    /// `report` is what `status --json` prints for that venue (docs/STATE.md).
    public func json() -> JSONValue {
        .object([
            ("status", .string(verdict.rawValue)),
            ("exitStatus", .number(Int64(verdict.exitStatus))),
            ("summary", .string(summary)),
            ("venues", .array(rows.map { row in
                let report: JSONValue = row.report?.json(pngAgeSeconds: row.pngAgeSeconds) ?? .object([
                    ("status", .string(StatusReport.Verdict.notRunning.rawValue)),
                    ("exitStatus", .number(3)),
                    ("summary", .string(row.missing ?? "not running")),
                ])
                return .object([
                    ("venue", row.venue.map(JSONValue.string) ?? .null),
                    ("outputDirectory", .string(row.outputDirectory)),
                    ("report", report),
                ])
            })),
        ])
    }
}
