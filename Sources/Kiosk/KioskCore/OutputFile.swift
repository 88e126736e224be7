import SharedQR

/// One file the daemon keeps current in its output directory. `all` is the ordered list the
/// core writes: adding an output is one case here, one entry in `all` and one branch in
/// `OutputRenderer`.
public enum OutputFile: String, CaseIterable, Equatable, Sendable {
    /// The QR as a 1-bit PNG.
    case png = "current.png"
    /// The QR as terminal text, then the safe number and expiry.
    case text = "current.txt"
    /// The counters and state for Prometheus (docs/METRICS.md).
    case metrics = "metrics.prom"
    /// The state document: last of the files that show the code, so a reader that sees it can
    /// trust the image and text beside it.
    case json = "current.json"

    /// The file name in the output directory.
    public var name: String { rawValue }

    /// Every output in the order they are put in place (docs/STATE.md): the code's files with
    /// `current.json` last of them, then the metrics, which no reader pairs with the image, so
    /// nothing lengthens the moment between the image's rename and the JSON's.
    public static let all: [OutputFile] = [.png, .text, .json, .metrics]

    /// The files that show the code: published as one set (docs/STATE.md), `current.json`
    /// last, so a watcher hears of it after the others.
    public static let codeFiles: [OutputFile] = [.png, .text, .json]

    /// The names of `all`, for sweeping temporaries and for the start-up log line.
    public static var names: [String] { all.map(\.name) }
}

/// How the QR is drawn: settings a reload may change without changing the code.
public struct OutputLook: Equatable, Sendable {
    /// PNG pixels per module.
    public var scale: Int
    /// Quiet zone in modules.
    public var margin: Int
    /// QR error correction level.
    public var level: ErrorCorrectionLevel

    /// Creates a look.
    public init(scale: Int = 8, margin: Int = 4, level: ErrorCorrectionLevel = .medium) {
        self.scale = scale
        self.margin = margin
        self.level = level
    }
}
