import CheckInDomain

/// The daemon's "screens": renders each new state as `current.png`, `current.txt` and
/// `current.json` and hands them to a sink. Bound to the view model like the seed's views.
///
/// Files change only when what they show changes (not every countdown second). The JSON goes
/// last so a reader that sees it can trust the image beside it. Failures are reported back to
/// the view model as inputs, which makes the state (and `current.json`) say `degraded`.
public final class OutputView {
    private let encoder: any QREncoding
    private let png: any PNGRendering
    private let sink: any OutputSink
    private let venue: VenueID
    private let period: RotationPeriod
    private let pid: Int32
    private let level: ErrorCorrectionLevel
    private let report: (CheckInViewModelInput) -> Void
    private var lastWritten: CheckInState?
    private var lastFailure: String?

    /// Creates the view; `report` receives `.outputFailed` / `.outputSucceeded`.
    public init(encoder: any QREncoding, png: any PNGRendering, sink: any OutputSink, venue: VenueID,
                period: RotationPeriod, level: ErrorCorrectionLevel, pid: Int32,
                report: @escaping (CheckInViewModelInput) -> Void) {
        self.encoder = encoder
        self.png = png
        self.sink = sink
        self.venue = venue
        self.period = period
        self.level = level
        self.pid = pid
        self.report = report
    }

    /// The files this view keeps current, in the order it writes them.
    public static let fileNames = ["current.png", "current.txt", "current.json"]

    /// Whether the last write failed, so the owner can retry at the next window.
    public var isFailing: Bool { lastFailure != nil }

    /// Takes over `previous`'s failure (a reload replaces the view): the first successful
    /// write then reports the recovery, instead of the state staying degraded.
    public func continueFrom(_ previous: OutputView) {
        lastFailure = previous.lastFailure
    }

    /// Renders `state` unless the files already show it (or `force`).
    public func render(_ state: CheckInState, force: Bool = false) {
        let content = state.withoutCountdown
        guard force || content != lastWritten else { return }
        do {
            try write(state)
            lastWritten = content
            if lastFailure != nil {
                lastFailure = nil
                report(.outputSucceeded)
            }
        } catch {
            lastWritten = nil
            if lastFailure != error.message {
                lastFailure = error.message
                report(.outputFailed(reason: error.message))
            }
        }
    }

    private func write(_ state: CheckInState) throws(OutputSinkError) {
        let matrix: QRMatrix
        let text: [UInt8]  // bytes all the way: no String to build, validate and convert back
        if let code = state.code {
            do {
                matrix = try encoder.encode(code.url, level: level)
            } catch {
                throw OutputSinkError("cannot encode \(code.url): \(error)")
            }
            text = TerminalQRRenderer(style: .utf8, margin: 2).renderBytes(matrix)
                + Array("\(code.safeNumber)\nexpires \(UTCTime.iso8601(code.expiresAt))\n".utf8)
        } else {
            // No stale QR may stay on display: a blank square replaces it.
            matrix = QRMatrix(version: 0, size: 21, modules: Array(repeating: false, count: 21 * 21))
            text = Array((state.phase == .stopped
                ? "STOPPED\nThe check-in daemon is not running.\n"
                : "PAUSED\nCheck-in codes are paused by the operator.\n").utf8)
        }
        try sink.replace("current.png", with: try png.png(for: matrix))
        try sink.replace("current.txt", with: text)
        let document = StateDocument(state: state, venue: venue, period: period, pid: pid)
        var json = document.json.serializedBytes
        json.append(UInt8(ascii: "\n"))
        try sink.replace("current.json", with: json)
    }
}
