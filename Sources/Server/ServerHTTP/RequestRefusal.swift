import ServerHTTPTypes

/// Why the adapter answered a request itself, before the site saw it: the request's framing
/// or target is one that proxies and servers may read differently (a request hidden in a body,
/// a path made of decoded separators), or it is larger than the server takes. Each is answered
/// with its status and the connection closed, so nothing after it on the connection is read.
public enum RequestRefusal: Error, Equatable, Sendable, CaseIterable {
    /// The request-target is longer than `HTTPServerLimits.targetBytes` (414).
    case targetTooLong
    /// A space, a control byte or a byte outside ASCII in the request-target, or a `%` not
    /// followed by two hex digits in its path (400).
    case malformedTarget
    /// An encoded separator or control byte in the path: `%2F`, `%5C`, `%00`, `%2E`… (400).
    case encodedSeparator
    /// The request line and headers are larger than `HTTPServerLimits.headBytes` (431).
    case headTooLarge
    /// A line of the head not ended by CRLF (bare LF), folded (obs-fold), with a control
    /// byte, a bad field name or extra spaces (400).
    case malformedHead
    /// An HTTP/1.1 request without `Host` (400).
    case missingHost
    /// More than one `Host` (400).
    case repeatedHost
    /// More than one `Content-Length`, equal or not (400).
    case repeatedContentLength
    /// `Content-Length` and `Transfer-Encoding` together (400).
    case lengthWithTransferEncoding
    /// `Transfer-Encoding` repeated, empty, `chunked` twice, or in an HTTP/1.0 request (400).
    case malformedTransferEncoding
    /// A transfer coding other than `chunked` (501).
    case unknownTransferCoding
    /// A declared `Content-Length` over `HTTPServerLimits.bodyBytes` (413, before the body).
    case bodyTooLarge

    /// The status it is answered with.
    public var status: Int {
        switch self {
        case .targetTooLong: 414
        case .headTooLarge: 431
        case .bodyTooLarge: 413
        case .unknownTransferCoding: 501
        default: 400
        }
    }

    /// The one line the answer says.
    public var reason: String {
        switch self {
        case .targetTooLong: "the request-target is too long"
        case .malformedTarget: "the request-target has a space, a control byte or a broken %-escape"
        case .encodedSeparator: "the path has an encoded separator or control byte"
        case .headTooLarge: "the request's header fields are too large"
        case .malformedHead: "a line of the request head is malformed (not ended by CRLF, folded, extra spaces, a control byte)"
        case .missingHost: "an HTTP/1.1 request needs a Host header"
        case .repeatedHost: "more than one Host header"
        case .repeatedContentLength: "more than one Content-Length header"
        case .lengthWithTransferEncoding: "Content-Length and Transfer-Encoding together"
        case .malformedTransferEncoding: "a malformed Transfer-Encoding"
        case .unknownTransferCoding: "the only transfer coding accepted is chunked"
        case .bodyTooLarge: "the request body is too large"
        }
    }

    /// The answer: a short plain text, the site's security headers, and `Connection: close`
    /// (libmicrohttpd then closes the connection once it is sent).
    public var response: HTTPResponse {
        HTTPResponse(status: status,
                     headers: [("Content-Type", "text/plain; charset=utf-8")] + HTTPResponse.securityHeaders + [("Connection", "close")],
                     body: Array("\(status) \(reason)\n".utf8))
    }
}
