/// The transport itself failed (not one request): its words.
public struct HTTPTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// An error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
