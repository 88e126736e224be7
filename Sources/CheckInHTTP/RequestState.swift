import CMicroHTTPD

/// What the adapter gathers about one request between libmicrohttpd's calls: the form fields
/// of its body, and whether the body was too large. Owned by the connection's request context
/// (retained there, released when libmicrohttpd says the request completed).
final class RequestState {
    /// Decoded form fields.
    var form: [String: String] = [:]
    /// Body bytes received.
    var bodyBytes = 0
    /// The body went over the limit: its fields are dropped and the site answers 413.
    var tooLarge = false
    /// libmicrohttpd's form decoder, when the body is a form.
    var postProcessor: OpaquePointer?
    /// The limits in force.
    let limits: HTTPServerLimits

    init(limits: HTTPServerLimits) {
        self.limits = limits
    }

    deinit {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
    }

    /// Adds `bytes` of a field (a value may arrive in several pieces).
    func append(field: String, bytes: UnsafeBufferPointer<UInt8>) {
        guard !tooLarge else { return }
        if form[field] == nil, form.count >= limits.formFields {
            tooLarge = true
            return
        }
        form[field, default: ""] += String(decoding: bytes, as: UTF8.self)
    }
}
