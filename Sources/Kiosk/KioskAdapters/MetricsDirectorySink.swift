import Glibc
import KioskCore
import SharedSystem

/// Writes `metrics.prom`'s text into a node_exporter textfile-collector directory as
/// `qrcheckin-VENUE.prom` (atomically: the collector reads `*.prom` and never sees the
/// temporary, whose name ends in `.tmp`). One file per venue, so daemons of several venues can
/// share the directory; a reload that changes the venue removes the old venue's file.
///
/// The directory is another program's (node_exporter's, often another user's): it must pass the
/// directory-trust walk (docs/STATE.md) at every write, like a directory a client reads, and is
/// written through its descriptor only.
public final class MetricsDirectorySink {
    /// The textfile-collector directory.
    public let directory: String
    /// The file written last, removed when the venue changes.
    private var lastName: String?

    /// What each file's name starts with: `qrcheckin-` (the daemon's), `qrcheckin-report-`.
    private let prefix: String

    /// A sink writing into `directory`, files named `PREFIX + VENUE.prom`.
    public init(directory: String, prefix: String = "qrcheckin-") {
        self.directory = directory
        self.prefix = prefix
    }

    /// The file for `venue`.
    public func path(for venue: String) -> String { directory + "/" + name(for: venue) }

    private func name(for venue: String) -> String { prefix + venue + ".prom" }

    /// Writes `bytes` for `venue`. Whether a failure is news (logged when writing starts and
    /// stops failing) is the daemon core's to decide (`DaemonEvent.metricsCopied`).
    public func write(_ bytes: [UInt8], venue: String) throws(OutputSinkError) {
        let name = name(for: venue)
        let target: TrustedDirectory
        do throws(SystemError) {
            do {
                target = try DirectoryTrust().open(directory, for: .reading)
            } catch {
                throw SystemError("use", path: directory, code: error.code, detail: error.description)
            }
            let prepared = try AtomicFile.prepare(bytes, as: name, in: target, mode: 0o644)
            do {
                try prepared.publish()  // renamed: no temporary is left to remove
            } catch {
                prepared.discard()
                throw error
            }
            target.sync()
        } catch {
            throw OutputSinkError(error.description)
        }
        if let old = lastName, old != name { _ = unlinkat(target.descriptor, old, 0) }
        lastName = name
    }
}
