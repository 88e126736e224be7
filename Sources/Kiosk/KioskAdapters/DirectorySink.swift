import Glibc
import KioskCore
import SharedQR
import SharedSystem

/// Writes the daemon's files into one directory, all of them or none.
public struct DirectorySink: OutputSink {
    /// The output directory, re-checked before every write (`OutputDirectory`).
    public let directory: OutputDirectory
    /// The code's files, published as one set (`current.png`, `current.txt`, `current.json`);
    /// nil: every file replaced on its own.
    public let generations: OutputGenerations?

    /// A sink writing into `directory`, the files `generations.names` as one set.
    public init(directory: OutputDirectory, generations: OutputGenerations? = nil) {
        self.directory = directory
        self.generations = generations
    }

    /// Prepares every file (temporaries for the files on their own, synced unless not `durable`;
    /// a synced generation for the set), switches the set in with one rename, then renames the others into place in
    /// order and syncs the directory once. If any cannot be prepared, none is replaced: the
    /// files on disk never disagree about the code (docs/STATE.md, "One code in all files").
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
        let setNames = generations?.names ?? []
        let inSet = files.filter { setNames.contains($0.name) }
        var prepared: [PreparedEntry] = []
        var published = 0  // the first `published` are in place: nothing of them is left to remove
        defer { prepared[published...].forEach { $0.discard() } }
        do throws(SystemError) {
            for file in files where !setNames.contains(file.name) {
                prepared.append(try AtomicFile.prepare(file.bytes, as: file.name, in: target, mode: 0o644, synced: file.durable))
            }
            if let generations, !inSet.isEmpty { try generations.publish(inSet, in: target) }
            // Renames in one directory on one file system fail only if the directory itself
            // went away meanwhile; then the files that were renamed are gone with it.
            for file in prepared {
                try file.publish()
                published += 1
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
