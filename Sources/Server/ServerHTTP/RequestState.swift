import CMicroHTTPD
import ServerHTTPTypes
import Synchronization

/// What the adapter gathers about one request between libmicrohttpd's calls: what its raw
/// request-target earned, the form fields of its body, whether the body was too large, and the
/// response once the site has it. Made when the request line has arrived (libmicrohttpd's URI
/// callback), owned by the request's context pointer from then on (retained there, released
/// when libmicrohttpd says the request completed).
///
/// `@unchecked Sendable` because it holds libmicrohttpd's values (the connection, the form
/// decoder): they and the fields below are touched only by libmicrohttpd's thread serving the
/// request, in its callbacks, except `answer` (under its lock, shared with the task that
/// delivers the answer, which resumes the connection under it: libmicrohttpd allows a resume
/// from any thread).
final class RequestState: @unchecked Sendable {
    /// Where the answer is. A commit takes a while, so a check-in's request passes through
    /// `awaited` (libmicrohttpd stops reading the connection, see `MicroHTTPServer.handle`) to
    /// `sleeping` (suspended) before its answer is `ready`.
    enum Answer {
        /// The site has not been asked yet.
        case notAsked
        /// The site is making the answer; the connection is awake.
        case awaited
        /// The site is making the answer; the connection is suspended until it is ready.
        case sleeping
        /// Made and not yet queued.
        case ready(HTTPResponse)
        /// Handed to libmicrohttpd.
        case queued
    }

    /// The answer's phase, shared with the thread that delivers it.
    let answer = Mutex(Answer.notAsked)
    /// When the request's last byte arrived (CLOCK_MONOTONIC ns), for the latency metric.
    var started: Int64 = 0
    /// The request as the site saw it, for the observer.
    var request: HTTPRequest?
    /// Whether the request is counted in the server's work under way (the site was asked for
    /// an answer it did not have at once, or its body streams) until libmicrohttpd says it
    /// completed: the server stops only when none is left, or answers them 503 at the deadline.
    var counted = false

    /// The connection, for the task that delivers the answer (set before the site is asked).
    var connection: ConnectionHandle?

    /// Keeps the site's answer (the first one: a stopping server may have answered for a
    /// commit that hangs) and wakes the connection if it sleeps; true when it did. The lock
    /// orders the suspend before any resume.
    func deliver(_ response: HTTPResponse) -> Bool {
        answer.withLock { answer in
            switch answer {
            case .ready, .queued:
                return false
            case .sleeping:
                answer = .ready(response)
                if let connection { MHD_resume_connection(connection.pointer) }
                return true
            case .notAsked, .awaited:
                answer = .ready(response)
                return false
            }
        }
    }

    /// The connection the request came on (its deadline is cleared once the request is in).
    let tracked: TrackedConnection?
    /// Bytes of the raw request-target.
    var targetSize = 0
    /// What the raw request-target earned, answered on the first call of the access handler.
    var refusal: RequestRefusal?
    /// Whether the first call (headers complete, body not read) has checked the head.
    var headChecked = false

    /// Decoded form fields.
    var form: [String: String] = [:]
    /// Body bytes received.
    var bodyBytes = 0
    /// The body as sent when it is not a form (no form decoder: a kiosk's JSON report, the
    /// API's JSON); bounded by `limits.bodyBytes` as every body is.
    var rawBody: [UInt8] = []
    /// The body went over the limit: its fields are dropped and the site answers 413.
    var tooLarge = false
    /// libmicrohttpd's form decoder, when the body is a form.
    var postProcessor: OpaquePointer?
    /// The limits in force.
    let limits: HTTPServerLimits

    init(limits: HTTPServerLimits, tracked: TrackedConnection?) {
        self.limits = limits
        self.tracked = tracked
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
