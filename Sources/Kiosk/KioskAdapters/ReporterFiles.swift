import Glibc
import KioskCore
import SharedSystem

/// Where the reporter writes `report.json` and `report.prom`, and where `status` finds them.
///
/// Under systemd the reporter runs as its own user and writes its own runtime directory
/// (`/run/qrcheckin-report`, `/run/qrcheckin-report/VENUE` for `qrcheckin-report@VENUE`): it may
/// not write the daemon's. Elsewhere (a developer's `qrcheckin report` beside `qrcheckin run`) it
/// writes beside the daemon's outputs. Both directories pass the directory-trust check
/// (docs/STATE.md) before anything is written or believed there.
public final class ReporterFiles {
    /// The systemd units' runtime directory (`RuntimeDirectory=qrcheckin-report`).
    public static let systemDirectory = "/run/qrcheckin-report"
    /// The metrics file's name beside `report.json`.
    public static let metricsFileName = "report.prom"

    /// The directory written.
    public let directory: String

    /// Files in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The reporter's directory: systemd's `$RUNTIME_DIRECTORY` when it runs as a unit, else the
    /// daemon's output directory.
    public static func directory(environment: [String: String], daemonOutput: String) -> String {
        environment["RUNTIME_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) } ?? daemonOutput
    }

    /// Where a reporter of the daemon writing to `daemonOutput` may have written its status:
    /// the units' directory for the system daemon's outputs (`/run/qrcheckin[/VENUE]`), then
    /// the output directory itself.
    public static func candidates(daemonOutput: String) -> [String] {
        let system = DefaultLocations.systemOutputDirectory
        var directories: [String] = []
        if daemonOutput == system || daemonOutput.hasPrefix(system + "/") {
            directories.append(systemDirectory + daemonOutput.dropFirst(system.count))
        }
        return directories + [daemonOutput]
    }

    /// Writes the status document and the metrics beside it, each replaced atomically (not
    /// synced: they describe the moment, and a power cut ends the moment too).
    public func write(_ status: ReporterStatus, metrics: [UInt8]) throws(SystemError) {
        let target: TrustedDirectory
        do {
            target = try DirectoryTrust().open(directory, for: .publishing, creating: 0o755)
        } catch {
            throw SystemError("use", path: directory, code: error.code, detail: error.description)
        }
        for (name, bytes) in [(ReporterStatus.fileName, status.json.serializedBytes + [10]), (Self.metricsFileName, metrics)] {
            let prepared = try AtomicFile.prepare(bytes, as: name, in: target, mode: 0o644, synced: false)
            do {
                try prepared.publish()
            } catch {
                prepared.discard()
                throw error
            }
        }
    }

    /// The status a reporter left in `directory`, if one is there and believable.
    public static func read(_ directory: String) -> ReporterStatus? {
        guard let held = try? DaemonDirectory.lookUp(directory),
              let bytes = try? held.read(ReporterStatus.fileName, limit: 64 * 1024) else { return nil }
        return try? ReporterStatus(parsing: bytes)
    }

    /// The status of the reporter of the daemon writing to `daemonOutput`, the newest found.
    public static func find(daemonOutput: String) -> ReporterStatus? {
        candidates(daemonOutput: daemonOutput).compactMap(read).max { $0.updatedAt < $1.updatedAt }
    }
}
