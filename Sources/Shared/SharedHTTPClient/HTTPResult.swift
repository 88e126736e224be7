/// What came back for a request: a response (any status), or why none did.
public enum HTTPResult: Equatable, Sendable {
    /// A complete response.
    case response(IncomingResponse)
    /// No response: the transport's words (refused, timed out, TLS, too large…).
    case failure(String)
}
