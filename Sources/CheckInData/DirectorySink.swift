import CheckInDomain
import Glibc

/// Writes the daemon's files into one directory, all of them or none.
public struct DirectorySink: OutputSink {
    /// The output directory.
    public let directory: String

    /// A sink writing into `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// Prepares every file (written and synced temporaries), then renames them into place in
    /// order and syncs the directory once. If any cannot be prepared, none is replaced: the
    /// files on disk never disagree about the code (docs/STATE.md, "Outputs change together").
    public func replaceTogether(_ files: [OutputContent]) throws(OutputSinkError) {
        var prepared: [PreparedFile] = []
        defer { prepared.forEach { $0.discard() } }  // no-ops once published
        do {
            for file in files {
                prepared.append(try AtomicFile.prepare(file.bytes, for: directory + "/" + file.name, mode: 0o644))
            }
            // Between the first rename and the last, a reader can see the new image beside the
            // old current.json. The renames take microseconds, unless the scheduler preempts us
            // among them: yielding first starts them on a fresh time slice, which makes that
            // rare enough that a minute of hammering readers never saw it (the soak test).
            sched_yield()
            // Renames in one directory on one file system fail only if the directory itself
            // went away meanwhile; then the files that were renamed are gone with it.
            for file in prepared { try file.publish() }
        } catch {
            throw OutputSinkError(error.description)
        }
        if let last = prepared.last { AtomicFile.syncDirectory(of: last.path) }
    }
}

extension PNGEncoder: PNGRendering {
    public func png(for matrix: QRMatrix) throws(OutputSinkError) -> [UInt8] {
        do {
            return try encode(matrix)
        } catch {
            throw OutputSinkError(error.description)
        }
    }
}
