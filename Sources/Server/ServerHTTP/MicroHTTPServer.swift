import CMicroHTTPD
import Glibc
import ServerHTTPTypes
import SharedAsync
import SharedDomain
import SharedSystem
import Synchronization

/// The HTTP adapter: GNU libmicrohttpd parses HTTP on a few epoll threads; each request becomes
/// a plain `HTTPRequest`, answered by the handler in a task of its own; the plain
/// `HTTPResponse` goes back to libmicrohttpd as it is. An answer ready by libmicrohttpd's next
/// call goes out at once; one that takes longer (a check-in's commit) has its connection
/// suspended meanwhile and resumed with it: libmicrohttpd's suspend and resume are the one
/// bridge between its threads and Swift's tasks (a streamed body's parts cross it the same way).
/// No business rules here; but what libmicrohttpd lets through that HTTP forbids (ambiguous
/// framing, encoded separators, a head too slow or too large, more connections than a fair
/// share) is answered here, before the site sees it (docs/SERVER.md, "Security").
///
/// A `Service`: `run()` sweeps late requests until asked to stop, then stops (`stop()`).
///
/// `@unchecked Sendable` because it owns libmicrohttpd's daemon pointer: set in `init`, read by
/// the callbacks (libmicrohttpd's threads) and cleared once, by `stop`, after the daemon's
/// threads have ended; everything else it holds is immutable or under a lock.
public final class MicroHTTPServer: Service, @unchecked Sendable {
    private let handler: any HTTPHandler
    private let resolver: ClientResolver
    /// The proxy's sign-in headers and whom they are believed from (the console's); nil: never
    /// copied (the visitor site's listener).
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
    /// What the sweep and the stop's deadlines sleep on (a test's `TestClock`).
    private let sleepClock: any Clock<Duration>
    /// Where `stop` waits for libmicrohttpd's threads to end (a blocking join).
    private let pool: BlockingPool
    /// The phase, and what sleeps (suspended requests, streams) that must be woken to stop.
    fileprivate let sleepers = Mutex(Sleepers())
    /// Requests whose answer is being made (from the moment the site is asked), or whose body
    /// streams, until they complete: `stop` waits for none to be left.
    fileprivate let counted = InFlight()
    /// Wakes the sweep when a connection opens (it sleeps untimed while there is none).
    fileprivate let connectionOpened = Wakeup()
    private let stopped = Mutex(false)

    /// How long `stop` lets suspended check-ins finish before it answers them 503 (a commit
    /// longer than this is a ledger that hangs; `serve`'s grace period is longer).
    public static let drainSeconds = 15

    /// Whether this libmicrohttpd keeps a request's head in place in its read buffer, which is
    /// how the adapter sees bare LFs and folded lines (`cmhd_inspect_head`): verified for 0.9.75
    /// only, so another version skips that one check rather than refuse every request.
    static let checksHeadLayout = String(cString: MHD_get_version()) == "0.9.75"

    /// Starts serving on `listener`, a bound, listening socket, which libmicrohttpd takes over:
    /// it closes it when it stops (see `cmhd_stop`), and it is closed if the start fails.
    /// `hooks` are told of the connection's moments (tests drive the suspended path with them);
    /// request deadlines are counted on `clock` (monotonic), the sweep and the stop's deadlines
    /// sleep on `sleepClock`; `pool` is where the stop joins libmicrohttpd's threads.
    public init(listener: consuming FileDescriptor, handler: any HTTPHandler, limits: HTTPServerLimits, resolver: ClientResolver,
                identity: ProxyIdentityHeaders? = nil, observer: (any HTTPObserver)? = nil, hooks: HTTPServerHooks = HTTPServerHooks(),
                clock: any WallClock = MonotonicClock(), sleepClock: any Clock<Duration> = ContinuousClock(), pool: BlockingPool) throws(HTTPServerError) {
        self.handler = handler
        self.limits = limits
        self.resolver = resolver
        self.identity = identity
        identityNames = identity?.names.map(LookupName.init) ?? []
        self.observer = observer
        self.hooks = hooks
        self.clock = clock
        self.sleepClock = sleepClock
        self.pool = pool
        tracker = ConnectionTracker(limits: limits)
        var settings = cmhd_settings(
            listen_fd: listener.release(), connection_limit: UInt32(limits.connections), timeout_seconds: UInt32(limits.idleSeconds),
            memory_limit: limits.connectionMemory, stack_size: 512 * 1024, threads: UInt32(max(1, limits.threads)))
        var callbacks = cmhd_callbacks(access: accessHandler, completed: completedHandler, accept: acceptPolicy,
                                       connection: connectionHandler, target: targetHandler,
                                       context: Unmanaged.passUnretained(self).toOpaque())
        daemon = cmhd_start(&settings, &callbacks)
        guard daemon != nil else { throw HTTPServerError("libmicrohttpd could not start on the listening socket") }
    }

    /// Ends the connections whose request has not arrived by its deadline (the clock's now):
    /// what the sweep does; tests call it after moving their clock. Returns how many it ended.
    @discardableResult
    public func endLateRequests() -> Int {
        tracker.endLateRequests(now: clock.now().milliseconds)
    }

    /// Connections open now.
    public var openConnections: Int { tracker.count }

    public var name: String { "HTTP listener" }

    /// Serves until asked to stop gracefully (or cancelled), ending late requests meanwhile,
    /// then stops (`stop`).
    public func run() async throws {
        let sweep = Task { [weak self] in await self?.sweep() }
        try? await gracefulShutdown()
        sweep.cancel()
        await stop()
    }

    /// Once a second while connections are open, ends those whose request is late (a deadline
    /// of seconds is kept to within one); with none open it waits, untimed, for one: an idle
    /// server wakes for nothing.
    private func sweep() async {
        while !Task.isCancelled {
            if tracker.count == 0 { await connectionOpened.wait() }
            do {
                try await sleepClock.sleep(for: .seconds(1))
            } catch {
                return
            }
            tracker.endLateRequests(now: clock.now().milliseconds)
        }
    }

    /// Stops: accepts no new connection and closes each after its answer; lets the answers
    /// under way come (check-ins committing, exports streaming) for `drainSeconds` at most (on
    /// the sleep clock; at once when the task is cancelled), answers 503 to what still waits
    /// then, and ends libmicrohttpd (which must not stop with a connection asleep). Once.
    public func stop(drainingFor limit: Duration = .seconds(drainSeconds)) async {
        guard !stopped.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
        // Not MHD_quiesce_daemon: with a thread pool, 0.9.75's quiesce and a worker both remove
        // the listening socket from the worker's epoll set, and the loser aborts ("Failed to
        // remove listen FD from epoll set"). New connections are refused by the accept policy.
        sleepers.withLock { $0.phase = .draining }
        if !(await close(within: limit)) {
            // An answer that never came (a ledger that hangs): the client is told to come back,
            // and its connection wakes to say so (stopping with it asleep would abort).
            let (requests, streams) = sleepers.withLock { sleepers in
                sleepers.phase = .closing
                return (Array(sleepers.requests.values), Array(sleepers.streams.values))
            }
            for state in requests { _ = state.deliver(Self.late) }
            for stream in streams { stream.cut() }
            _ = await counted.drained(within: .seconds(2), on: sleepClock)
        }
        guard let daemon else { return }
        self.daemon = nil
        // Joins libmicrohttpd's threads: never shuts down the listening socket (it may be systemd's).
        let stopping = DaemonHandle(daemon)
        _ = try? await pool.run { () throws(Never) in cmhd_stop(stopping.pointer) }
    }

    /// Waits, `limit` at most, for a moment when no request's answer is under way, and closes
    /// at that moment: true when it did. The count is read and the phase set under the lock
    /// every request enters the count under, so no request can begin between the two, and
    /// libmicrohttpd (which aborts the process when it is stopped with a connection suspended)
    /// is stopped with none. Waiting for the count alone was not enough: a request asked
    /// between the count's zero and the closing went to sleep after it (issue 38's SIGABRT
    /// under load).
    private func close(within limit: Duration) async -> Bool {
        func wait<C: Clock<Duration>>(on clock: C) async -> Bool {
            let deadline = clock.now.advanced(by: limit)
            while true {
                let closed = sleepers.withLock { sleepers in
                    guard counted.count == 0 else { return false }
                    sleepers.phase = .closing
                    return true
                }
                if closed { return true }
                let left = clock.now.duration(to: deadline)
                guard left > .zero, await counted.drained(within: left, on: clock) else { return false }
            }
        }
        return await wait(on: sleepClock)
    }

    /// The answer to a request still waiting when the server closes.
    static let late = HTTPResponse(status: 503, headers: [("Content-Type", "text/plain; charset=utf-8")] + HTTPResponse.securityHeaders
                                       + [("Retry-After", "5"), ("Connection", "close")],
                                   body: Array("503 the check-in server is restarting: try again in a few seconds\n".utf8))

    deinit {
        // Only a server never run and stopped gets here with its daemon (a start that failed
        // further on): nothing sleeps in it.
        if let daemon { cmhd_stop(daemon) }
    }

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
            } else if let upload {
                // Not a form (libmicrohttpd made no decoder): kept as sent, within the limit.
                upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    state.rawBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
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

    /// Asks the site for the request's answer: at once when it has one (`respondAtOnce`), else
    /// in a task of its own: the answer is delivered when the task has it
    /// (`RequestState.deliver`), and the connection, if it sleeps by then, woken.
    private func ask(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                     state: RequestState) {
        // The request is in: no deadline while its answer is made and sent.
        state.tracked?.deadline.store(0, ordering: .relaxed)
        state.started = MonotonicClock().nanoseconds()
        let request = makeRequest(connection, url: url, method: method, state: state)
        state.request = request
        if let now = handler.respondAtOnce(to: request) {
            state.answer.withLock { $0 = .ready(now) }
            return
        }
        // Counted from now until libmicrohttpd says the request completed, in the lock `stop`
        // closes under: a stopping server waits for this answer, or this request is not begun.
        let closing = sleepers.withLock { sleepers in
            guard sleepers.phase != .closing else { return true }
            state.counted = true
            counted.enter()
            return false
        }
        if closing {
            state.answer.withLock { $0 = .ready(Self.late) }
            return
        }
        state.answer.withLock { $0 = .awaited }
        state.connection = ConnectionHandle(connection)
        let handler = handler, hooks = hooks
        Task {
            if state.deliver(await handler.respond(to: request)) { hooks.resumed?() }
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
    /// unless the server is closing, when nothing may sleep: then it is answered 503 now.
    private func sleepOrFinish(state: RequestState, connection: OpaquePointer) -> MHD_Result {
        let now: HTTPResponse? = sleepers.withLock { sleepers in
            guard sleepers.phase != .closing else {
                return state.answer.withLock { answer in
                    defer { answer = .queued }
                    if case .ready(let response) = answer { return response }
                    return Self.late
                }
            }
            return state.answer.withLock { answer in
                if case .ready(let response) = answer {
                    answer = .queued
                    return response
                }
                answer = .sleeping
                sleepers.requests[ObjectIdentifier(state)] = state
                MHD_suspend_connection(connection)
                return nil
            }
        }
        guard let now else {
            hooks.suspended?()
            return .YES
        }
        return finish(now, state: state, connection: connection)
    }

    private func finish(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer) -> MHD_Result {
        var response = response
        // Stopping: this connection ends with its answer, so the work under way only shrinks.
        if sleepers.withLock({ $0.phase }) != .serving { response.headers.append(("Connection", "close")) }
        let queued = queue(response, on: connection, state: state)
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
        // they are dropped here, before any handler, and the request says only that they came.
        var untrustedIdentity = false
        if let identity {
            var sent: [String: String] = [:]
            for name in identityNames {
                if let text = value(.HEADER_KIND, name) { sent[name.name] = text }
            }
            let filtered = identity.filter(sent, peer: peer)
            headers.merge(filtered.kept) { $1 }
            untrustedIdentity = filtered.dropped
        }
        var query: [String: String] = [:]
        for name in LookupName.query {
            if let text = value(.GET_ARGUMENT_KIND, name) { query[name.name] = text }
        }
        var cookies: [String: String] = [:]
        for name in LookupName.cookies {
            if let text = value(.COOKIE_KIND, name) { cookies[name.name] = text }
        }
        // Every argument, known or not (a count, nothing copied): who refuses unknown ones sees them.
        let arguments = Int(MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil))
        return HTTPRequest(
            method: String(cString: method), path: String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)).bindMemory(to: UInt8.self), as: UTF8.self),
            query: query, queryArguments: arguments, headers: headers, cookies: cookies, form: state.tooLarge ? [:] : state.form,
            body: state.tooLarge ? [] : state.rawBody, bodyTooLarge: state.tooLarge, client: resolved.text, clientKey: resolved.client?.rateLimitKey,
            clientIsLocal: resolved.client?.isLoopback ?? false, secure: resolved.secure, untrustedIdentity: untrustedIdentity)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, state: RequestState? = nil) -> MHD_Result {
        let made: OpaquePointer?
        if let stream = response.stream {
            // Unknown length: chunked; libmicrohttpd pulls 64 KB at a time as the socket takes them.
            let box = StreamBox(stream, connection: ConnectionHandle(connection), suspended: hooks.suspended)
            let closing: Bool = sleepers.withLock { sleepers in
                guard sleepers.phase != .closing else { return true }
                // Counted until the request completes: a stop lets an export end, or cuts it.
                if let state {
                    sleepers.streams[ObjectIdentifier(state)] = box
                    if !state.counted {
                        state.counted = true
                        counted.enter()
                    }
                }
                return false
            }
            if closing { box.cut() }
            made = MHD_create_response_from_callback(UInt64.max, 64 * 1024, streamReader, Unmanaged.passRetained(box).toOpaque(), streamClosed)
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

    /// A request completed (its answer sent, or it ended unanswered): it no longer counts.
    fileprivate func completed(_ state: RequestState) {
        guard state.counted else { return }
        sleepers.withLock { sleepers in
            sleepers.requests[ObjectIdentifier(state)] = nil
            sleepers.streams[ObjectIdentifier(state)] = nil
        }
        counted.leave()
    }
}

/// The query arguments and cookies the adapter copies into a request (no others are read).
public enum HTTPRequestQuery {
    /// Query argument names: the visitor pages' (`lang`, `again`), then the operator console's
    /// (its searches, pages and previews; the visitor site never reads them), then a kiosk
    /// report's (`wait`) and the API's (`limit`).
    public static let names = ["lang", "again", "venue", "from", "until", "receipt", "after", "before", "format", "done", "checkin", "phone", "only", "wait", "limit", "out"]
    /// Cookie names: the visitor pages', then the console's session, sign-in form and pending
    /// second step.
    public static let cookieNames = ["qrcheckin_device", "qrcheckin_visitor", "qrcheckin_console", "qrcheckin_console_login",
                                     "qrcheckin_console_pending"]
}

/// A libmicrohttpd connection handed to the thread that resumes it. `@unchecked Sendable`
/// because it is libmicrohttpd's pointer: valid until the request completes, and resumed from
/// another thread only under the lock that orders the resume after the suspend.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// The daemon handed to the pool thread that stops it. `@unchecked Sendable` because it is
/// libmicrohttpd's pointer, stopped once, by that thread, after every use of it ended.
struct DaemonHandle: @unchecked Sendable {
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
        owner.completed(request.takeUnretainedValue())
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
    // Stopping: no new connection (the answers under way close theirs).
    let admitted = owner.sleepers.withLock({ $0.phase }) == .serving && owner.tracker.admits(ClientNetwork(address))
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
        owner.connectionOpened.wake()
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
