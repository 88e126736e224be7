import CMicroHTTPD
import Glibc

/// What the adapter reads from a request's head on libmicrohttpd's first call (headers
/// complete, body not read yet) to decide whether the site may see the request at all.
struct RequestHead: Equatable, Sendable {
    /// Whether the request says HTTP/1.0 (no `Host` needed, no transfer coding allowed).
    var isHTTP10: Bool
    /// Bytes of request line and headers, as libmicrohttpd counted them.
    var bytes: Int
    /// Every line ended by CRLF where it should, with no folded line, control byte or bad name
    /// (always true where the layout cannot be checked: see `cmhd_inspect_head`).
    var wellFormed: Bool
    /// How many `Host` fields came.
    var hosts: Int
    /// How many `Content-Length` fields came, and the first one's value (libmicrohttpd has
    /// already refused one that is not a number with its own 400).
    var contentLengths: Int
    var contentLength: UInt64?
    /// How many `Transfer-Encoding` fields came, and the first one's value.
    var transferEncodings: Int
    var transferEncoding: String?

    /// The head of the request libmicrohttpd is asking about. `targetSize` is the length of
    /// its raw request-target; `checkLayout` whether this libmicrohttpd keeps lines in place.
    init(_ connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>,
         version: UnsafePointer<CChar>, targetSize: Int, checkLayout: Bool) {
        var head = cmhd_head()
        cmhd_inspect_head(connection, method, url, version, targetSize, checkLayout ? 1 : 0, &head)
        isHTTP10 = strcmp(version, "HTTP/1.0") == 0
        bytes = head.size
        wellFormed = head.malformed == 0
        hosts = Int(head.hosts)
        contentLengths = Int(head.lengths)
        contentLength = head.length.flatMap { Self.number(UnsafeRawBufferPointer(start: $0, count: head.length_size)) }
        transferEncodings = Int(head.codings)
        transferEncoding = head.coding.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: head.coding_size), as: UTF8.self)
        }
    }

    /// A head with these parts (tests).
    init(isHTTP10: Bool = false, bytes: Int = 100, wellFormed: Bool = true, hosts: Int = 1, contentLengths: Int = 0,
         contentLength: UInt64? = nil, transferEncodings: Int = 0, transferEncoding: String? = nil) {
        self.isHTTP10 = isHTTP10
        self.bytes = bytes
        self.wellFormed = wellFormed
        self.hosts = hosts
        self.contentLengths = contentLengths
        self.contentLength = contentLength
        self.transferEncodings = transferEncodings
        self.transferEncoding = transferEncoding
    }

    /// Throws the refusal the head earns under `limits`, the first that applies in the order
    /// of RFC 9112's framing rules: size, lines, `Host`, the body's framing, the body's size.
    func validate(_ limits: HTTPServerLimits) throws(RequestRefusal) {
        guard bytes <= limits.headBytes else { throw .headTooLarge }
        guard wellFormed else { throw .malformedHead }
        guard hosts <= 1 else { throw .repeatedHost }
        guard hosts == 1 || isHTTP10 else { throw .missingHost }
        guard contentLengths <= 1 else { throw .repeatedContentLength }
        if let transferEncoding {
            // RFC 9112 6.1: with both, the length cannot be trusted, and a proxy may have used it.
            guard contentLengths == 0 else { throw .lengthWithTransferEncoding }
            guard transferEncodings == 1, !isHTTP10 else { throw .malformedTransferEncoding }
            try Self.validate(coding: transferEncoding)
        }
        if let contentLength, contentLength > UInt64(limits.bodyBytes) { throw .bodyTooLarge }
    }

    /// `chunked`, alone: any other coding is one the server does not implement (501); an empty
    /// list or `chunked` twice is malformed (400).
    static func validate(coding: String) throws(RequestRefusal) {
        var chunked = 0
        for item in coding.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingSpaces().lowercased()
            if name.isEmpty { continue }
            guard name == "chunked" else { throw .unknownTransferCoding }
            chunked += 1
        }
        guard chunked == 1 else { throw .malformedTransferEncoding }
    }

    /// A decimal number (libmicrohttpd checked its digits); nil past UInt64.
    private static func number(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if overflow || carry { return nil }
            value = sum
        }
        return value
    }
}
