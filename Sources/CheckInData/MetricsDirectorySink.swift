import CheckInDomain
import Glibc

/// Writes `metrics.prom`'s text into a node_exporter textfile-collector directory as
/// `qrcheckin-VENUE.prom` (atomically: the collector reads `*.prom` and never sees the
/// temporary, whose name ends in `.tmp`). One file per venue, so daemons of several venues can
/// share the directory; a reload that changes the venue removes the old venue's file.
public final class MetricsDirectorySink {
    /// The textfile-collector directory.
    public let directory: String
    /// The file written last, removed when the venue changes.
    private var lastPath: String?
    /// Whether the last write failed (so failures are logged when they start and end only).
    private var failing = false

    /// A sink writing into `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The file for `venue`.
    public func path(for venue: String) -> String { directory + "/qrcheckin-" + venue + ".prom" }

    /// Writes `bytes` for `venue`; returns a log line when writing starts or stops failing.
    public func write(_ bytes: [UInt8], venue: String) -> (level: LogLevel, line: String)? {
        let path = path(for: venue)
        do {
            try AtomicFile.write(bytes, to: path, mode: 0o644)
        } catch {
            defer { failing = true }
            return failing ? nil : (.warning, "cannot write metrics into \(directory): \(error.description)")
        }
        if let old = lastPath, old != path { unlink(old) }
        lastPath = path
        defer { failing = false }
        return failing ? (.notice, "metrics are written into \(directory) again") : nil
    }
}
