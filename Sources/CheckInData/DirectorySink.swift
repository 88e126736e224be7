import CheckInDomain
import Glibc

/// Writes the daemon's files into one directory, all of them or none.
public struct DirectorySink: OutputSink {
    /// The output directory, re-checked before every write (`OutputDirectory`).
    public let directory: OutputDirectory

    /// A sink writing into `directory`.
    public init(directory: OutputDirectory) {
        self.directory = directory
    }

    /// Prepares every file (written temporaries, synced unless not `durable`), then renames
    /// them into place in order and syncs the directory once. If any cannot be prepared, none is replaced: the
    /// files on disk never disagree about the code (docs/STATE.md, "Outputs change together").
    /// Every step goes through the directory's descriptor: nothing is written through a path
    /// that could change (docs/STATE.md, "Directory trust").
    public func replaceTogether(_ files: [OutputContent]) throws(OutputSinkError) {
        let target: TrustedDirectory
        do {
            target = try directory.current()
        } catch {
            guard case .untrusted(let path, let reason) = error else { throw OutputSinkError(error.description) }
            throw OutputSinkError("refusing to publish in \(path): \(reason)")
        }
        var prepared: [PreparedEntry] = []
        var renamed = 0  // the first `renamed` are in place: nothing of them is left to remove
        defer { prepared[renamed...].forEach { $0.discard() } }
        do throws(SystemError) {
            for file in files {
                prepared.append(try AtomicFile.prepare(file.bytes, as: file.name, in: target, mode: 0o644, synced: file.durable))
            }
            // Between the first rename and the last, a reader can see the new image beside the
            // old current.json. The renames take microseconds, unless the scheduler preempts us
            // among them: the names are made C strings beforehand, so the renames run back to
            // back with no allocation between them, and yielding first starts them on a fresh
            // time slice. That makes it rare enough that a minute of hammering readers did not
            // see it (the soak test); three renames cannot be one atomic step.
            let names = prepared.map { (Array($0.temporary.utf8CString), Array($0.name.utf8CString)) }
            let fd = target.descriptor
            sched_yield()
            // Renames in one directory on one file system fail only if the directory itself
            // went away meanwhile; then the files that were renamed are gone with it.
            for (index, (temporary, name)) in names.enumerated() {
                guard renameat(fd, temporary, fd, name) == 0 else { throw SystemError("replace", path: target.pathOf(prepared[index].name)) }
                renamed += 1
            }
        } catch {
            throw OutputSinkError(error.description)
        }
        target.sync()
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
