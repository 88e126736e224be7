import SharedQR

/// One output file's name and its new content.
public struct OutputContent: Equatable, Sendable {
    /// The file name in the output directory.
    public let name: String
    /// The new bytes.
    public let bytes: [UInt8]
    /// Whether the content must survive a power cut once in place (synced before its rename).
    /// `metrics.prom` need not: it is rewritten with every change, and nothing pairs it with
    /// the image, so its fsync is not worth a tenth of a rotation.
    public let durable: Bool

    /// Creates one.
    public init(name: String, bytes: [UInt8], durable: Bool = true) {
        self.name = name
        self.bytes = bytes
        self.durable = durable
    }
}

/// Port: where the daemon's output files go. The Data layer writes them into a directory.
public protocol OutputSink {
    /// Replaces every file in `files` or none: all new contents are prepared (written and synced)
    /// first, then put in place in the given order. Throws a one-line reason when any could not
    /// be prepared, leaving every old file as it was.
    func replaceTogether(_ files: [OutputContent]) throws(OutputSinkError)
}

/// A file could not be replaced; `message` names it and says why.
public struct OutputSinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line naming the file and the error.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Port: draws a QR matrix as PNG bytes (the Data layer's libpng encoder).
public protocol PNGRendering {
    /// The PNG file for `matrix`.
    func png(for matrix: QRMatrix) throws(OutputSinkError) -> [UInt8]
}
