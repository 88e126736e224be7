import CheckInDomain

/// Writes a view's files into one directory, each replaced atomically.
public struct DirectorySink: OutputSink {
    /// The output directory.
    public let directory: String

    /// A sink writing into `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    public func replace(_ name: String, with bytes: [UInt8]) throws(OutputSinkError) {
        do {
            try AtomicFile.write(bytes, to: directory + "/" + name, mode: 0o644)
        } catch {
            throw OutputSinkError(error.description)
        }
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
