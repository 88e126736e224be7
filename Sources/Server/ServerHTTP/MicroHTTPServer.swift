import CMicroHTTPD
import Dispatch
import Glibc
import ServerHTTPTypes
import SharedDomain
import SharedSystem
import Synchronization

/// The HTTP adapter: GNU libmicrohttpd parses HTTP on a few epoll threads; each request becomes
/// a plain `HTTPRequest`, the handler answers with a plain `HTTPResponse` (at once, or after a
/// commit while the connection is suspended), which goes back to libmicrohttpd as it is. No
/// business rules here; but what libmicrohttpd lets through that HTTP forbids (ambiguous
/// framing, encoded separators, a head too slow or too large, more connections than a fair
/// share) is answered here, before the site sees it (docs/SERVER.md, "Security").
public final class MicroHTTPServer: Service, @unchecked Sendable {
    private let handler: any HTTPHandler
    private let resolver: ClientResolver
    /// The proxy's sign-in headers and whom they are believed from (the console's, with
    /// `admin-auth = proxy`); nil: never copied.
    private let identity: ProxyIdentityHeaders?
    private let identityNames: [LookupName]
    private let limits: HTTPServerLimits
    private let observer: (any HTTPObserver)?
    fileprivate let hooks: HTTPServerHooks
    private var daemon: OpaquePointer?
    /// Every open connection: the fair share and the request deadlines.
    fileprivate let tracker: ConnectionTracker
    /// CLOCK_MONOTONIC, or a test's: request deadlines are counted on it.
    fileprivate let clock: any WallClock
    /// The once-a-second sweep that ends requests too slow to arrive.
    private var sweep: DispatchSourceTimer?
    /// Whether the server is stopping: then no request is suspended any more.
    private let stopping = Mutex(false)
    /// Entered by each request that is suspended (a check-in waiting for its commit), left when
    /// libmicrohttpd says it completed: `stop` waits for it to empty.
    fileprivate let suspended = DispatchGroup()
    /// The requests whose connections are (or were) suspended, until they complete.
    fileprivate let sleepers = Mutex<[ObjectIdentifier: RequestState]>([:])

    /// How long `stop` lets suspended check-ins finish before it stops anyway (a commit longer
    /// than this is a ledger that hangs; the service manager's own timeout is longer).
    public static let drainSeconds = 15

    /// Whether this libmicrohttpd keeps a request's head in place in its read buffer, which is
    /// how the adapter sees bare LFs and folded lines (`cmhd_inspect_head`): verified for 0.9.75
    /// only, so another version skips that one check rather than refuse every request.
    static let checksHeadLayout = String(cString: MHD_get_version()) == "0.9.75"

    /// Starts serving on `listener`, a bound, listening socket, which libmicrohttpd takes over:
    /// it closes it when it stops (see `cmhd_stop`), and it is closed if the start fails.
    /// `hooks` are told of the connection's moments (tests drive the suspended path with them);
    /// request deadlines are counted on `clock` (monotonic).
    public init(listener: consuming FileDescriptor, handler: any HTTPHandler, limits: HTTPServerLimits, resolver: ClientResolver,
                identity: ProxyIdentityHeaders? = nil, observer: (any HTTPObserver)? = nil, hooks: HTTPServerHooks = HTTPServerHooks(),
                clock: any WallClock = MonotonicClock()) throws(HTTPServerError) {
        self.handler = handler
        self.limits = limits
        self.resolver = resolver
        self.identity = identity
        identityNames = identity?.names.map(LookupName.init) ?? []
        self.observer = observer
        self.hooks = hooks
        self.clock = clock
        tracker = ConnectionTracker(limits: limits)
        var settings = cmhd_settings(
            listen_fd: listener.release(), connection_limit: UInt32(limits.connections), timeout_seconds: UInt32(limits.idleSeconds),
            memory_limit: limits.connectionMemory, stack_size: 512 * 1024, threads: UInt32(max(1, limits.threads)))
        var callbacks = cmhd_callbacks(access: accessHandler, completed: completedHandler, accept: acceptPolicy,
                                       connection: connectionHandler, target: targetHandler,
                                       context: Unmanaged.passUnretained(self).toOpaque())
        daemon = cmhd_start(&settings, &callbacks)
        guard daemon != nil else { throw HTTPServerError("libmicrohttpd could not start on the listening socket") }
        // Once a second is enough: a deadline of seconds is kept to within one, and a server
        // with no late request does nothing but look.
        let sweep = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        sweep.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        sweep.setEventHandler { [tracker, clock] in tracker.endLateRequests(now: clock.now().milliseconds) }
        sweep.resume()
        self.sweep = sweep
    }

    /// Ends the connections whose request has not arrived by its deadline (the clock's now):
    /// what the once-a-second sweep does; tests call it after moving their clock. Returns how
    /// many it ended.
    @discardableResult
    public func endLateRequests() -> Int {
        tracker.endLateRequests(now: clock.now().milliseconds)
    }

    /// Connections open now.
    public var openConnections: Int { tracker.count }

    public var name: String { "HTTP listener" }

    /// Stops as `stop()` does, waiting for suspended check-ins until `deadline` (monotonic) at most.
    public func stop(by deadline: WallTime) {
        stop(drainingFor: deadline.milliseconds - MonotonicClock().now().milliseconds)
    }

    /// Stops accepting, finishes the requests under way and closes every connection.
    public func stop() {
        stop(drainingFor: Int64(Self.drainSeconds) * 1000)
    }

    private func stop(drainingFor milliseconds: Int64) {
        guard let daemon else { return }
        sweep?.cancel()
        sweep = nil
        // libmicrohttpd aborts when stopped with a suspended connection (SIGTERM under load):
        // let the check-ins under way commit and answer, then stop.
        // Not MHD_quiesce_daemon: with a thread pool, 0.9.75's quiesce and a worker both remove
        // the listening socket from the worker's epoll set, and the loser aborts ("Failed to
        // remove listen FD from epoll set"). New requests are answered without suspension.
        stopping.withLock { $0 = true }
        if suspended.wait(timeout: .now() + .milliseconds(Int(clamping: max(0, milliseconds)))) == .timedOut {
            // An answer that never came (a ledger that hangs): the client is told to come back,
            // and its connection wakes to say so (stopping with it asleep would abort).
            let late = HTTPResponse(status: 503, headers: [("Content-Type", "text/plain; charset=utf-8")] + HTTPResponse.securityHeaders
                                        + [("Retry-After", "5"), ("Connection", "close")],
                                    body: Array("503 the check-in server is restarting: try again in a few seconds\n".utf8))
            for state in sleepers.withLock({ Array($0.values) }) { _ = state.deliver(late) }
            _ = suspended.wait(timeout: .now() + .seconds(2))
        }
        cmhd_stop(daemon)  // never shuts down the listening socket: it may be systemd's
        self.daemon = nil
    }

    deinit { stop() }

    /// The request line has arrived (libmicrohttpd's URI callback, before it decodes the target
    /// in place): the request's state begins, with what its raw target earned. What this
    /// returns is the request's context pointer in every call of the access handler.
    fileprivate func began(target: UnsafePointer<CChar>?, connection: OpaquePointer?) -> UnsafeMutableRawPointer {
        let tracked = connection.flatMap(cmhd_socket_context).map { Unmanaged<TrackedConnection>.fromOpaque($0).takeUnretainedValue() }
        let state = RequestState(limits: limits, tracked: tracked)
        if let target {
            state.targetSize = strlen(target)
            do throws(RequestRefusal) {
                try RequestTarget.validate(UnsafeBufferPointer(start: UnsafeRawPointer(target).assumingMemoryBound(to: UInt8.self),
                                                               count: state.targetSize), limit: limits.targetBytes)
            } catch {
                state.refusal = error
            }
        } else {
            state.refusal = .malformedTarget
        }
        return Unmanaged.passRetained(state).toOpaque()
    }

    /// One call of libmicrohttpd's access handler (see `accessHandler`).
    fileprivate func handle(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                            version: UnsafePointer<CChar>, upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = context.pointee else {
            // The URI callback made the state: a request without one did not come through it.
            let state = RequestState(limits: limits, tracked: nil)
            context.pointee = Unmanaged.passRetained(state).toOpaque()
            return refuse(.malformedTarget, state: state, method: method, connection: connection)
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        guard state.headChecked else {
            // The first call: headers complete, body not read. Refuse what must not reach the
            // site, else set up the body's decoder; the answer comes on a later call.
            state.headChecked = true
            do throws(RequestRefusal) {
                if let refusal = state.refusal { throw refusal }
                try RequestHead(connection, method: method, url: url, version: version, targetSize: state.targetSize,
                                checkLayout: Self.checksHeadLayout).validate(limits)
            } catch {
                return refuse(error, state: state, method: method, connection: connection)
            }
            state.postProcessor = MHD_create_post_processor(connection, 1024, postIterator, Unmanaged.passUnretained(state).toOpaque())
            return .YES
        }
        if uploadSize.pointee > 0 {
            state.bodyBytes += uploadSize.pointee
            if state.bodyBytes > limits.bodyBytes {
                state.tooLarge = true
            } else if let processor = state.postProcessor, let upload {
                // A malformed form stops its decoder; the fields read so far stay (the site checks them).
                _ = MHD_post_process(processor, upload, uploadSize.pointee)
            }
            uploadSize.pointee = 0
            return .YES
        }
        // The request is complete. Its answer comes at once (most pages) or after a commit,
        // and libmicrohttpd 0.9.75 must not read the connection while it waits: a connection
        // resumed in its reading phase is read once, and a client that has shut down its sending
        // side (HTTP/1.0 tools do, at any moment) is then closed without its answer. So a call
        // that has no answer returns without one, which moves the connection out of its reading
        // phase, and only the next call (libmicrohttpd makes it on its next loop) suspends.
        switch state.answer.withLock({ $0 }) {
        case .notAsked:
            ask(connection, url: url, method: method, state: state)
            return take(state).map { finish($0, state: state, connection: connection) } ?? .YES
        case .awaited:
            return sleepOrFinish(state: state, connection: connection)
        case .ready:
            return take(state).map { finish($0, state: state, connection: connection) } ?? .YES
        case .sleeping, .queued:
            return .YES
        }
    }

    /// Answers `refusal` on the first call, before the body is read: libmicrohttpd then reads
    /// no more of the request, sends the answer and, as it says `Connection: close`, closes
    /// the connection, so nothing hidden after the head ever runs.
    private func refuse(_ refusal: RequestRefusal, state: RequestState, method: UnsafePointer<CChar>,
                        connection: OpaquePointer) -> MHD_Result {
        state.answer.withLock { $0 = .queued }
        let response = refusal.response
        // The site's metrics count it with every other answer (no path: the adapter read none).
        observer?.answered(HTTPRequest(method: String(cString: method), path: ""), response, seconds: 0)
        return queue(response, on: connection)
    }

    /// Asks the site for the request's answer, which it gives on any thread, once.
    private func ask(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                     state: RequestState) {
        // The request is in: no deadline while its answer is made and sent.
        state.tracked?.deadline.store(0, ordering: .relaxed)
        state.started = MonotonicClock().nanoseconds()
        let request = makeRequest(connection, url: url, method: method, state: state)
        state.request = request
        state.answer.withLock { $0 = .awaited }
        state.connection = ConnectionHandle(connection)
        let hooks = hooks
        handler.respond(to: request) { response in
            if state.deliver(response) { hooks.resumed?() }
        }
    }

    /// The answer, if it is ready (then it is marked queued).
    private func take(_ state: RequestState) -> HTTPResponse? {
        state.answer.withLock { answer in
            guard case .ready(let response) = answer else { return nil }
            answer = .queued
            return response
        }
    }

    /// The second call for an answer still being made: suspend the connection until it is
    /// ready (counted until libmicrohttpd says the request completed, after its resumption) —
    /// unless the server is stopping, which must not happen with a connection asleep: then
    /// this thread waits for the answer.
    private func sleepOrFinish(state: RequestState, connection: OpaquePointer) -> MHD_Result {
        let stopping = stopping.withLock { stopping in
            if !stopping { suspended.enter() }
            return stopping
        }
        if stopping { return finish(state.waitForAnswer(), state: state, connection: connection) }
        let now: HTTPResponse? = state.answer.withLock { answer in
            if case .ready(let response) = answer {
                answer = .queued
                return response
            }
            answer = .sleeping
            state.wasSuspended = true
            sleepers.withLock { $0[ObjectIdentifier(state)] = state }
            MHD_suspend_connection(connection)
            return nil
        }
        guard let now else {
            hooks.suspended?()
            return .YES
        }
        suspended.leave()
        return finish(now, state: state, connection: connection)
    }

    private func finish(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer) -> MHD_Result {
        let queued = queue(response, on: connection)
        if let observer, let request = state.request {
            observer.answered(request, response, seconds: Double(MonotonicClock().nanoseconds() - state.started) / 1e9)
        }
        return queued
    }

    private func makeRequest(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                             state: RequestState) -> HTTPRequest {
        func value(_ kind: MHD_ValueKind, _ key: LookupName) -> String? {
            key.cString.withUnsafeBufferPointer { name in
                MHD_lookup_connection_value(connection, kind, name.baseAddress).map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)).bindMemory(to: UInt8.self), as: UTF8.self)
                }
            }
        }
        let peer = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            cmhd_client_address(connection, buffer.baseAddress!, buffer.count)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: strlen(buffer.baseAddress!)).bindMemory(to: UInt8.self), as: UTF8.self)
        }
        let resolved = resolver.resolve(peer: peer, forwardedFor: value(.HEADER_KIND, LookupName.forwardedFor),
                                        forwardedProto: value(.HEADER_KIND, LookupName.forwardedProto))
        var headers: [String: String] = [:]
        for name in LookupName.headers {
            if let text = value(.HEADER_KIND, name) { headers[name.name] = text }
        }
        // The proxy's sign-in headers are copied from a trusted proxy only; from anyone else
        // they are dropped here, and the request says only that they came.
        var untrustedIdentity = false
        if let identity {
            let trusted = identity.trusts(peer: peer)
            for name in identityNames {
                guard let text = value(.HEADER_KIND, name) else { continue }
                if trusted { headers[name.name] = text } else { untrustedIdentity = true }
            }
        }
        var query: [String: String] = [:]
        for name in LookupName.query {
            if let text = value(.GET_ARGUMENT_KIND, name) { query[name.name] = text }
        }
        var cookies: [String: String] = [:]
        for name in LookupName.cookies {
            if let text = value(.COOKIE_KIND, name) { cookies[name.name] = text }
        }
        var request = HTTPRequest(
            method: String(cString: method), path: String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)).bindMemory(to: UInt8.self), as: UTF8.self),
            query: query, headers: headers, cookies: cookies, form: state.tooLarge ? [:] : state.form,
            bodyTooLarge: state.tooLarge, client: resolved.text, clientKey: resolved.client?.rateLimitKey,
            clientIsLocal: resolved.client?.isLoopback ?? false, secure: resolved.secure)
        request.untrustedIdentity = untrustedIdentity
        return request
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        if let stream = response.stream {
            // Unknown length: chunked; libmicrohttpd pulls 64 KB at a time as the socket takes them.
            made = MHD_create_response_from_callback(UInt64.max, 64 * 1024, streamReader,
                                                     Unmanaged.passRetained(StreamBox(stream)).toOpaque(), streamClosed)
        } else {
            made = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// A streamed body as libmicrohttpd's callbacks hold it (retained until the response is freed).
private final class StreamBox {
    let stream: any HTTPBodyStream
    init(_ stream: any HTTPBodyStream) { self.stream = stream }
}

/// libmicrohttpd asks for the next part of a streamed body: up to `max` bytes into `buffer`.
private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    let stream = Unmanaged<StreamBox>.fromOpaque(context!).takeUnretainedValue().stream
    let bytes = stream.read(max: max)
    guard !bytes.isEmpty, let buffer else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
    bytes.withUnsafeBytes { _ = memcpy(buffer, $0.baseAddress!, bytes.count) }
    return bytes.count
}

/// libmicrohttpd frees a streamed response: sent, or its connection closed.
private let streamClosed: MHD_ContentReaderFreeCallback = { context in
    Unmanaged<StreamBox>.fromOpaque(context!).takeRetainedValue().stream.close()
}

/// The query arguments and cookies the adapter copies into a request (no others are read).
public enum HTTPRequestQuery {
    /// Query argument names: the visitor pages' (`lang`, `again`), then the operator console's
    /// (its searches, pages and previews; the visitor site never reads them).
    public static let names = ["lang", "again", "venue", "from", "until", "receipt", "after", "before", "format", "done", "checkin", "phone", "only",
                               "out"]
    /// Cookie names: the visitor pages', then the console's session, sign-in form and pending
    /// second step.
    public static let cookieNames = ["qrcheckin_device", "qrcheckin_visitor", "qrcheckin_console", "qrcheckin_console_login",
                                     "qrcheckin_console_pending"]
}

/// A libmicrohttpd connection handed to the thread that resumes it.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// What the adapter tells about a connection's moments, for tests that must act at a precise
/// one (answer a check-in only once its connection sleeps, stop the server meanwhile): the seam
/// that replaces sleeping and hoping. Called on libmicrohttpd's threads; nil ones cost nothing.
public struct HTTPServerHooks: Sendable {
    /// A request's connection was suspended to wait for its answer.
    public var suspended: (@Sendable () -> Void)?
    /// A suspended connection was resumed with its answer.
    public var resumed: (@Sendable () -> Void)?
    /// The accept policy decided on a new connection, before libmicrohttpd makes it: true, it
    /// may open (and is counted from now on); false, libmicrohttpd closes it at once.
    public var admitted: (@Sendable (Bool) -> Void)?
    /// A connection was accepted and is tracked (its deadline runs).
    public var accepted: (@Sendable () -> Void)?
    /// A request completed (its answer sent, or it ended unanswered): a kept-alive
    /// connection's next request is due from now.
    public var completed: (@Sendable () -> Void)?

    /// Hooks calling these closures.
    public init(suspended: (@Sendable () -> Void)? = nil, resumed: (@Sendable () -> Void)? = nil,
                admitted: (@Sendable (Bool) -> Void)? = nil, accepted: (@Sendable () -> Void)? = nil,
                completed: (@Sendable () -> Void)? = nil) {
        self.suspended = suspended
        self.resumed = resumed
        self.admitted = admitted
        self.accepted = accepted
        self.completed = completed
    }
}

/// The server failed to start.
public struct HTTPServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

// libmicrohttpd's callbacks: plain C functions (not closures of main.swift, which would be
// main-actor isolated and trap on libmicrohttpd's threads). Each finds its Swift object again
// through the context pointer.

private let accessHandler: MHD_AccessHandlerCallback = { server, connection, url, method, version, upload, uploadSize, context in
    guard let server, let connection, let url, let method, let version, let uploadSize, let context else { return .NO }
    return Unmanaged<MicroHTTPServer>.fromOpaque(server).takeUnretainedValue()
        .handle(connection, url: url, method: method, version: version, upload: upload, uploadSize: uploadSize, context: context)
}

private let targetHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
    server, target, connection in
    guard let server else { return nil }
    return Unmanaged<MicroHTTPServer>.fromOpaque(server).takeUnretainedValue().began(target: target, connection: connection)
}

private let completedHandler: MHD_RequestCompletedCallback = { server, _, context, _ in
    guard let context, let state = context.pointee else { return }
    let request = Unmanaged<RequestState>.fromOpaque(state)
    if let server {
        let owner = Unmanaged<MicroHTTPServer>.fromOpaque(server).takeUnretainedValue()
        if request.takeUnretainedValue().wasSuspended {
            owner.sleepers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(request.takeUnretainedValue())) }
            owner.suspended.leave()
        }
        // A kept-alive connection's next request is due within the deadline from now.
        request.takeUnretainedValue().tracked?.deadline.store(owner.clock.now().milliseconds + owner.tracker.requestMilliseconds,
                                                              ordering: .relaxed)
        owner.hooks.completed?()
    }
    request.release()
    context.pointee = nil
}

private let acceptPolicy: MHD_AcceptPolicyCallback = { server, address, _ in
    guard let server else { return .NO }
    let owner = Unmanaged<MicroHTTPServer>.fromOpaque(server).takeUnretainedValue()
    let admitted = owner.tracker.admits(ClientNetwork(address))
    owner.hooks.admitted?(admitted)
    return admitted ? .YES : .NO
}

private let connectionHandler: MHD_NotifyConnectionCallback = { server, connection, socketContext, event in
    guard let server, let connection, let socketContext else { return }
    let owner = Unmanaged<MicroHTTPServer>.fromOpaque(server).takeUnretainedValue()
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        let tracked = owner.tracker.opened(descriptor: cmhd_connection_fd(connection), network: ClientNetwork(cmhd_connection_address(connection)),
                                           now: owner.clock.now().milliseconds)
        socketContext.pointee = Unmanaged.passRetained(tracked).toOpaque()
        owner.hooks.accepted?()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let pointer = socketContext.pointee else { return }
        let tracked = Unmanaged<TrackedConnection>.fromOpaque(pointer)
        owner.tracker.closed(tracked.takeUnretainedValue())
        tracked.release()
        socketContext.pointee = nil
    @unknown default:
        break
    }
}

private let postIterator: MHD_PostDataIterator = { state, _, key, _, _, _, data, _, size in
    guard let state, let key else { return .NO }
    let request = Unmanaged<RequestState>.fromOpaque(state).takeUnretainedValue()
    let name = String(cString: key)
    if let data, size > 0 {
        request.append(field: name, bytes: UnsafeRawBufferPointer(start: data, count: Int(size)).bindMemory(to: UInt8.self))
    } else {
        request.append(field: name, bytes: UnsafeBufferPointer(start: nil, count: 0))
    }
    return request.tooLarge ? .NO : .YES
}

/// A name `makeRequest` looks up in libmicrohttpd's tables, with its C string made once: the
/// two dozen lookups of every request made a C string each (an allocation and a copy) before.
struct LookupName: Sendable {
    let name: String
    let cString: [CChar]

    init(_ name: String) {
        self.name = name
        cString = Array(name.utf8CString)
    }

    static let forwardedFor = LookupName("X-Forwarded-For")
    static let forwardedProto = LookupName("X-Forwarded-Proto")
    static let headers = HTTPRequest.keptHeaders.map(LookupName.init)
    static let query = HTTPRequestQuery.names.map(LookupName.init)
    static let cookies = HTTPRequestQuery.cookieNames.map(LookupName.init)
}
