/// Port: where a view's files go. The Data layer writes them atomically into a directory.
public protocol OutputSink {
    /// Replaces the file `name` with `bytes` atomically; throws a one-line reason on failure.
    func replace(_ name: String, with bytes: [UInt8]) throws(OutputSinkError)
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
