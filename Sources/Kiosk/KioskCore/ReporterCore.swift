import SharedDomain
import SharedHTTPClient
import SharedJSON

/// Everything `qrcheckin report` decides, as one value: events in (`handle(_:at:)`), effects
/// out, as `DaemonCore` does for the daemon. No clock, no socket, no network: the shell reads
/// the time, sends what `.send` asks through its transport, applies steers through the daemon's
/// control socket, and reports back. Tests drive it with times of their choosing.
///
/// The rules (docs/DAEMON.md, "Reporting"):
/// - One report is open at a time, held by the server as a long poll for `holdSeconds`; the
///   next follows when the interval is due, at once when the kiosk's state changed (a change
///   while one is held replaces it: the held one is cancelled), and at once after a steer was
///   applied (saying so).
/// - An answer counts only when its `Qrcheckin-Answer` MAC is the venue's report key's over this
///   report's nonce and its body: a forged answer, or another report's (a replay), steers
///   nothing and counts as a failure.
/// - A steer is applied once (its id is remembered across restarts).
/// - While the server is unreachable or refuses, attempts back off: the interval, doubling, at
///   most 5 minutes (longer when the server says so with Retry-After, up to that bound too).
public struct ReporterCore: Sendable {
    /// What the status document says.
    public private(set) var status: ReporterStatus

    private let setup: ReporterSetup
    private let signer: ReportAuthenticator
    private let nonces: any ReportNonceSource
    /// The newest observation.
    private var observation: KioskObservation?
    /// What the last report sent said, of what is reported at once when it changes.
    private var sentSignificant: KioskObservation.Significant?
    /// The exchange in flight.
    private var inFlight: InFlight?
    /// When the next report is due (monotonic ms): the interval after the last one, or the end
    /// of a backoff.
    private var nextDue: Int64?
    /// Whether attempts are backing off (the last one failed).
    private var backingOff = false
    /// A steer being applied: nothing is sent until it is done.
    private var applying: KioskSteer?
    /// The next exchange's id.
    private var nextID = 1
    private var stopping = false
    /// The status last written, to write only changes.
    private var recorded: ReporterStatus?

    private struct InFlight: Sendable {
        let id: Int
        let nonce: ReportNonce
        let sentAt: Int64
        let significant: KioskObservation.Significant
    }

    /// A core for `setup`, signing with `signer`, nonces from `nonces`.
    public init(setup: ReporterSetup, signer: ReportAuthenticator, nonces: any ReportNonceSource, now: ReporterTime) {
        self.setup = setup
        self.signer = signer
        self.nonces = nonces
        status = ReporterStatus(phase: .starting, reportTo: setup.reportTo, venue: setup.venue.rawValue, kiosk: setup.kiosk.rawValue,
                                pid: Int64(setup.pid), updatedAt: now.wall.seconds)
    }

    /// Whether an exchange is in flight.
    public var isSending: Bool { inFlight != nil }

    /// Handles one event that happened at `now`; returns what to do, in order.
    public mutating func handle(_ event: ReporterEvent, at now: ReporterTime) -> [ReporterEffect] {
        guard !stopping else { return [] }
        var effects: [ReporterEffect] = []
        switch event {
        case .started(let previous):
            if let previous, previous.venue == setup.venue.rawValue, previous.kiosk == setup.kiosk.rawValue {
                status.applied = previous.applied
            }
            effects.append(.log(.notice, "reporting venue \(setup.venue) as kiosk \(setup.kiosk) to \(setup.reportTo) every "
                + "\(setup.intervalSeconds)s (each report held open up to \(setup.holdSeconds)s for the console's steers)"))
        case .observed(let seen):
            observation = seen
            decide(now, &effects)
        case .tick:
            decide(now, &effects)
        case .completed(let id, let result):
            guard let exchange = inFlight, exchange.id == id else { break }  // cancelled meanwhile
            inFlight = nil
            completed(exchange, result, now, &effects)
        case .steerApplied(let applied, let seen):
            applying = nil
            observation = seen
            status.applied = applied
            effects.append(.log(applied.outcome == "ok" ? .notice : .warning,
                                "console steer \(applied.steer) applied: \(applied.outcome == "ok" ? "done" : "the daemon said \(applied.outcome)")"))
            // Say so at once, whatever the interval (unless the server is away: then with the next attempt).
            if !backingOff { send(now, &effects) } else { decide(now, &effects) }
        case .stop:
            stopping = true
            if let exchange = inFlight {
                effects.append(.cancel(id: exchange.id))
                inFlight = nil
            }
            status.phase = .stopped
            status.nextAttemptAt = nil
            record(now, force: true, &effects)
            effects.append(.exit)
            return effects
        }
        record(now, force: false, &effects)
        return effects
    }

    // MARK: - Deciding when to report

    /// Sends when a report is due or the state changed, else asks to be woken when one is due.
    private mutating func decide(_ now: ReporterTime, _ effects: inout [ReporterEffect]) {
        guard let observation, applying == nil else { return }
        let changed = observation.significant
        if let exchange = inFlight {
            // A held report that no longer says what is true is replaced (the long poll restarts).
            if !backingOff, exchange.significant != changed {
                effects.append(.cancel(id: exchange.id))
                inFlight = nil
                send(now, &effects)
            }
            return
        }
        let due = nextDue.map { now.monotonic >= $0 } ?? true
        if due || (!backingOff && sentSignificant != changed) {
            send(now, &effects)
        } else if let nextDue {
            effects.append(.wake(atMonotonic: nextDue))
        }
    }

    /// Signs and sends a report of the newest observation.
    private mutating func send(_ now: ReporterTime, _ effects: inout [ReporterEffect]) {
        guard let observation else { return }
        let report = KioskReport(
            venue: setup.venue, kiosk: setup.kiosk, version: setup.version, reportInterval: Int64(setup.intervalSeconds),
            wallClock: max(0, now.wall.milliseconds), lastRoundTripMs: status.lastRoundTripMs, uptimeSeconds: observation.uptimeSeconds,
            status: observation.status, summary: observation.summary, daemon: observation.daemon,
            outputAgeSeconds: observation.outputAgeSeconds, applied: status.applied)
        let body = report.bodyBytes
        let nonce = nonces.next()
        let signature = signer.sign(body: body, time: report.wallClock, nonce: nonce)
        let request = OutgoingRequest(
            url: setup.url,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json"),
                      ("User-Agent", "qrcheckin/\(setup.version)"), (ReportSignature.headerName, signature.headerValue)],
            body: body, timeoutMilliseconds: Int64(setup.holdSeconds + ReporterSetup.exchangeGraceSeconds) * 1000)
        let id = nextID
        nextID += 1
        inFlight = InFlight(id: id, nonce: nonce, sentAt: now.monotonic, significant: observation.significant)
        sentSignificant = observation.significant
        if !backingOff { nextDue = now.monotonic + Int64(setup.intervalSeconds) * 1000 }
        status.sent += 1
        status.lastAttemptAt = now.wall.seconds
        effects.append(.send(id: id, request))
    }

    // MARK: - Answers

    private mutating func completed(_ exchange: InFlight, _ result: HTTPResult, _ now: ReporterTime, _ effects: inout [ReporterEffect]) {
        let roundTrip = max(0, now.monotonic - exchange.sentAt)
        switch verdict(on: result, nonce: exchange.nonce) {
        case .failure(let reason, let retryAfter):
            failed(reason, retryAfterSeconds: retryAfter, now, &effects)
        case .answer(let answer):
            if backingOff {
                effects.append(.log(.notice, "reports reach \(setup.reportTo) again after \(status.failuresInARow) failed attempt"
                    + (status.failuresInARow == 1 ? "" : "s")))
            } else if status.phase == .starting {
                effects.append(.log(.info, "the first report was answered (round trip \(roundTrip) ms)"))
            }
            backingOff = false
            nextDue = exchange.sentAt + Int64(setup.intervalSeconds) * 1000
            status.phase = .reporting
            status.lastOkAt = now.wall.seconds
            status.lastError = nil
            status.failuresInARow = 0
            status.failingSince = nil
            status.nextAttemptAt = nil
            status.lastRoundTripMs = roundTrip
            if let steer = answer.steer, steer.id != status.applied?.steer {
                applying = steer
                effects.append(.apply(steer))
                return
            }
            decide(now, &effects)
        }
    }

    /// What an exchange's result means: a verified answer, or a failure and why.
    private enum Verdict {
        case answer(ReportAnswer)
        case failure(String, retryAfter: Int?)
    }

    private func verdict(on result: HTTPResult, nonce: ReportNonce) -> Verdict {
        let response: IncomingResponse
        switch result {
        case .failure(let reason): return .failure(reason, retryAfter: nil)
        case .response(let answered): response = answered
        }
        guard response.status == 200 else {
            let retryAfter = response.status == 429 || response.status == 503 ? response.header("Retry-After").flatMap { Int($0) } : nil
            return .failure("the server refused the report: HTTP \(response.status)" + Self.problem(response), retryAfter: retryAfter)
        }
        guard let header = response.header(AnswerSignature.headerName) else {
            return .failure("the server's answer is not signed (no \(AnswerSignature.headerName) header): ignored", retryAfter: nil)
        }
        let signature: AnswerSignature
        do {
            signature = try AnswerSignature(headerValue: header)
        } catch {
            return .failure("the server's answer has a bad \(AnswerSignature.headerName) header (\(error.description)): ignored", retryAfter: nil)
        }
        // The MAC first: nothing of an answer is believed, or even parsed, before it is verified.
        guard signer.isValidAnswer(signature, body: response.body, nonce: nonce) else {
            return .failure("the server's answer is not signed with this venue's report key for this report "
                + "(forged, altered, or another report's answer): ignored", retryAfter: nil)
        }
        do {
            return .answer(try ReportAnswer(body: response.body))
        } catch {
            return .failure("the server's answer is signed but malformed (\(error.description)): ignored", retryAfter: nil)
        }
    }

    /// ` (title: detail)` of an RFC 9457 problem, cut and stripped of control characters.
    static func problem(_ response: IncomingResponse) -> String {
        guard let value = try? JSONParser.parse(response.body) else { return "" }
        let words = [value["title"]?.string, value["detail"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
        guard !words.isEmpty else { return "" }
        let text = String(String.UnicodeScalarView(words.joined(separator: ": ").unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : $0
        }))
        return " (" + (text.count > 160 ? String(text.prefix(159)) + "…" : text) + ")"
    }

    private mutating func failed(_ reason: String, retryAfterSeconds: Int?, _ now: ReporterTime, _ effects: inout [ReporterEffect]) {
        if reason != status.lastError {
            effects.append(.log(.warning, "report to \(setup.reportTo) failed: \(reason); the daemon is not affected, "
                + "trying again with backoff (at most every \(ReporterSetup.maximumBackoffSeconds / 60) min)"))
        }
        backingOff = true
        status.phase = .failing
        status.failed += 1
        status.failuresInARow += 1
        if status.failingSince == nil { status.failingSince = now.wall.seconds }
        status.lastError = reason
        var delay = setup.backoffSeconds(failures: Int(status.failuresInARow))
        if let retryAfterSeconds { delay = min(ReporterSetup.maximumBackoffSeconds, max(delay, retryAfterSeconds)) }
        nextDue = now.monotonic + Int64(delay) * 1000
        status.nextAttemptAt = now.wall.seconds + Int64(delay)
        effects.append(.wake(atMonotonic: nextDue!))
    }

    /// Writes the status document when it changed (or `force`). A report sent changes only the
    /// counts and `lastAttemptAt`: they go with the write its answer (or failure) makes, so a
    /// report costs one write of the files, not two.
    private mutating func record(_ now: ReporterTime, force: Bool, _ effects: inout [ReporterEffect]) {
        var current = status
        current.updatedAt = recorded?.updatedAt ?? now.wall.seconds
        if let recorded, inFlight != nil {
            current.sent = recorded.sent
            current.lastAttemptAt = recorded.lastAttemptAt
        }
        guard force || current != recorded else { return }
        status.updatedAt = now.wall.seconds
        recorded = status
        effects.append(.record(status))
    }
}
