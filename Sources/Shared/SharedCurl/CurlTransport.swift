import CCurl
import SharedHTTPClient

/// Outgoing HTTP for both halves (the kiosk's reporter, the server's webhook deliveries):
/// libcurl's multi interface, driven from its caller's one event loop (`wait` polls libcurl's
/// sockets and the loop's own descriptors together), so an exchange held open by the peer
/// never blocks the loop, and no thread is made. The multi handle keeps its connections
/// between exchanges (HTTP/1.1 keep-alive), so many requests to one receiver reuse a few.
///
/// Every exchange: POST, http and https only (`CURLOPT_PROTOCOLS_STR`), redirects not followed,
/// no signals (`CURLOPT_NOSIGNAL`: the resolver's timeout must not raise SIGALRM in a process
/// whose signals arrive on a signalfd), 5 s to connect and the request's own limit in all, TLS
/// checked against the system's CA store (Debian's ca-certificates, libcurl's default), the
/// answer's body at most `bodyLimit` bytes (or only its first `bodyLimit` kept, when
/// `truncatesBody`) and its header at most 16 KiB.
public final class CurlTransport: HTTPTransport {
    /// The longest a connection may take to be made.
    public static let connectTimeoutMilliseconds = 5_000
    /// The most bytes of response header lines kept.
    public static let maximumHeaderBytes = 16 * 1024

    private let multi: UnsafeMutableRawPointer
    private var transfers: [Int: Transfer] = [:]
    /// The most bytes of a response body.
    private let bodyLimit: Int
    /// Whether a longer body is cut at `bodyLimit` (else the exchange fails).
    private let truncatesBody: Bool

    /// One exchange's handle and buffers, freed with it.
    private final class Transfer {
        let easy: UnsafeMutableRawPointer
        let body = UnsafeMutablePointer<ccurl_buffer>.allocate(capacity: 1)
        let headers = UnsafeMutablePointer<ccurl_buffer>.allocate(capacity: 1)
        let error = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        let timeoutMilliseconds: Int64

        init(easy: UnsafeMutableRawPointer, bodyLimit: Int, truncatesBody: Bool, timeoutMilliseconds: Int64) {
            self.easy = easy
            self.timeoutMilliseconds = timeoutMilliseconds
            body.initialize(to: ccurl_buffer(data: nil, size: 0, limit: bodyLimit, overflowed: 0, truncates: truncatesBody ? 1 : 0))
            headers.initialize(to: ccurl_buffer(data: nil, size: 0, limit: CurlTransport.maximumHeaderBytes, overflowed: 0, truncates: 0))
            error.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        }

        deinit {
            curl_easy_cleanup(easy)
            if let headerList { curl_slist_free_all(headerList) }
            ccurl_buffer_reset(body)
            ccurl_buffer_reset(headers)
            body.deallocate()
            headers.deallocate()
            error.deallocate()
        }
    }

    /// Loads libcurl (the first call into it) and makes a multi handle. A response body longer
    /// than `bodyLimit` fails its exchange, unless `truncatesBody`: then its first `bodyLimit`
    /// bytes are kept and the rest is read and dropped.
    public init(bodyLimit: Int = 4096, truncatesBody: Bool = false) throws(HTTPTransportError) {
        if let failure = ccurl_load() { throw HTTPTransportError(String(cString: failure)) }
        guard let multi = curl_multi_init() else { throw HTTPTransportError("curl_multi_init failed") }
        self.multi = multi
        self.bodyLimit = bodyLimit
        self.truncatesBody = truncatesBody
    }

    deinit {
        for transfer in transfers.values { curl_multi_remove_handle(multi, transfer.easy) }
        transfers.removeAll()
        curl_multi_cleanup(multi)
    }

    public func start(_ request: OutgoingRequest, id: Int) throws(HTTPTransportError) {
        guard let easy = curl_easy_init() else { throw HTTPTransportError("curl_easy_init failed") }
        let transfer = Transfer(easy: easy, bodyLimit: bodyLimit, truncatesBody: truncatesBody, timeoutMilliseconds: request.timeoutMilliseconds)
        // "Expect:" turns off the 100-continue round trip libcurl would make for a body over 1 KiB.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            guard let list = curl_slist_append(transfer.headerList, line) else { throw HTTPTransportError("curl_slist_append failed") }
            transfer.headerList = list
        }
        var code = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) { if code == CURLE_OK { code = ccurl_setopt_long(easy, option, value) } }
        func set(_ option: CURLoption, _ value: String) { if code == CURLE_OK { code = value.withCString { ccurl_setopt_pointer(easy, option, $0) } } }
        func set(_ option: CURLoption, pointer: UnsafeRawPointer?) { if code == CURLE_OK { code = ccurl_setopt_pointer(easy, option, pointer) } }
        set(CURLOPT_URL, request.url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_CONNECTTIMEOUT_MS, Self.connectTimeoutMilliseconds)
        set(CURLOPT_TIMEOUT_MS, Int(request.timeoutMilliseconds))
        set(CURLOPT_TCP_KEEPALIVE, 1)
        set(CURLOPT_POST, 1)
        set(CURLOPT_POSTFIELDSIZE, request.body.count)
        if code == CURLE_OK {
            code = request.body.withUnsafeBytes { ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) }
        }
        set(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(transfer.headerList))
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(transfer.error))
        if code == CURLE_OK { code = ccurl_collect(easy, transfer.body, transfer.headers) }
        guard code == CURLE_OK else { throw HTTPTransportError("cannot set up the request: \(String(cString: curl_easy_strerror(code)))") }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else { throw HTTPTransportError("cannot start the request: \(String(cString: curl_multi_strerror(added)))") }
        transfers[id] = transfer
    }

    public func cancel(_ id: Int) {
        guard let transfer = transfers.removeValue(forKey: id) else { return }
        curl_multi_remove_handle(multi, transfer.easy)
    }

    public func wait(timeoutMilliseconds: Int32, readable descriptors: [Int32]) throws(HTTPTransportError)
        -> (results: [(id: Int, result: HTTPResult)], readable: Set<Int32>) {
        try perform()
        var results = finished()
        var extra = descriptors.map { curl_waitfd(fd: $0, events: Int16(CURL_WAIT_POLLIN), revents: 0) }
        var count: Int32 = 0
        // A result in hand is returned at once; the descriptors are only looked at then.
        let timeout = results.isEmpty ? (timeoutMilliseconds < 0 ? Int32.max : timeoutMilliseconds) : 0
        let polled = extra.withUnsafeMutableBufferPointer { curl_multi_poll(multi, $0.baseAddress, UInt32($0.count), timeout, &count) }
        guard polled == CURLM_OK else { throw HTTPTransportError("curl_multi_poll: \(String(cString: curl_multi_strerror(polled)))") }
        try perform()
        results += finished()
        return (results, Set(extra.filter { $0.revents != 0 }.map(\.fd)))
    }

    private func perform() throws(HTTPTransportError) {
        var running: Int32 = 0
        let code = curl_multi_perform(multi, &running)
        guard code == CURLM_OK else { throw HTTPTransportError("curl_multi_perform: \(String(cString: curl_multi_strerror(code)))") }
    }

    /// The exchanges that ended since the last call, and what came of each.
    private func finished() -> [(id: Int, result: HTTPResult)] {
        var results: [(id: Int, result: HTTPResult)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard ccurl_message_done(message, &easy, &code) != 0,
                  let id = transfers.first(where: { $0.value.easy == easy })?.key, let transfer = transfers.removeValue(forKey: id) else { continue }
            curl_multi_remove_handle(multi, transfer.easy)
            results.append((id, result(of: transfer, code)))
        }
        return results
    }

    private func result(of transfer: Transfer, _ code: CURLcode) -> HTTPResult {
        if transfer.body.pointee.overflowed != 0 && transfer.body.pointee.truncates == 0 {
            return .failure("the answer is longer than \(transfer.body.pointee.limit) bytes: not read")
        }
        if transfer.headers.pointee.overflowed != 0 {
            return .failure("the answer's header is longer than \(Self.maximumHeaderBytes) bytes: not read")
        }
        guard code == CURLE_OK else {
            let detail = String(cString: transfer.error)
            let words = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            if code == CURLE_OPERATION_TIMEDOUT {
                return .failure("no answer within \(transfer.timeoutMilliseconds / 1000)s (\(words))")
            }
            return .failure(words)
        }
        var status = 0
        _ = ccurl_getinfo_long(transfer.easy, CURLINFO_RESPONSE_CODE, &status)
        let body = transfer.body.pointee.data.map { Array(UnsafeBufferPointer(start: $0, count: transfer.body.pointee.size)) } ?? []
        let head = transfer.headers.pointee.data.map { Array(UnsafeBufferPointer(start: $0, count: transfer.headers.pointee.size)) } ?? []
        return .response(IncomingResponse(status: status, headers: Self.headerFields(head), body: body))
    }

    /// The fields of the last response head in `bytes` (libcurl passes every head: a 1xx's too).
    /// Lines are split and trimmed as bytes: as Characters "\r\n" is one grapheme (no "\n"
    /// would be found), and generic String slicing cost ~700,000 instructions a report.
    static func headerFields(_ bytes: [UInt8]) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            if bytes[start..<lineEnd].starts(with: "HTTP/".utf8) {
                fields.removeAll()  // a new head: the earlier one was a 1xx
            } else if let colon = bytes[start..<lineEnd].firstIndex(of: UInt8(ascii: ":")) {
                var valueStart = colon + 1, valueEnd = lineEnd
                while valueStart < valueEnd, isBlank(bytes[valueStart]) { valueStart += 1 }
                while valueEnd > valueStart, isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
                fields.append((String(decoding: bytes[start..<colon], as: UTF8.self),
                               String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)))
            }
            start = end + 1
        }
        return fields
    }
}
