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
        do throws(SystemError) {
            for file in files {
                prepared.append(try AtomicFile.prepare(file.bytes, for: directory + "/" + file.name, mode: 0o644))
            }
            // Between the first rename and the last, a reader can see the new image beside the
            // old current.json. The renames take microseconds, unless the scheduler preempts us
            // among them: the paths are made C strings beforehand, so the renames run back to
            // back with no allocation between them, and yielding first starts them on a fresh
            // time slice. That makes it rare enough that a minute of hammering readers did not
            // see it (the soak test); three renames cannot be one atomic step.
            let paths = prepared.map { (Array($0.temporary.utf8CString), Array($0.path.utf8CString)) }
            sched_yield()
            // Renames in one directory on one file system fail only if the directory itself
            // went away meanwhile; then the files that were renamed are gone with it.
            for (index, (temporary, path)) in paths.enumerated() where rename(temporary, path) != 0 {
                throw SystemError("replace", path: prepared[index].path)
            }
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
