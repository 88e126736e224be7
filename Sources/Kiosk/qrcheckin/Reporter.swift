import Glibc
import KioskAdapters
import KioskCore
import KioskViews
import SharedCLI
import SharedDomain
import SharedHTTPClient
import SharedSystem

/// `qrcheckin report`'s I/O shell around `ReporterCore`: one thread, one loop. libcurl's sockets
/// and the signalfd are polled together (`HTTPTransport.wait`); the daemon is looked at once a
/// second as `status` does; steers go through the control socket as `ctl` would send them.
/// Every decision is the core's. The daemon never waits for any of this: the reporter is
/// another process, and a report that hangs holds up only the reporter's own loop.
final class Reporter {
    /// How often the daemon is looked at: a change (a pause, a degraded disk) is reported
    /// within a second.
    static let observeEveryMilliseconds: Int64 = 1000

    private let configuration: ReportConfiguration
    private let logger: Logger
    private let transport: any HTTPTransport
    private let signals: SignalSource
    private let files: ReporterFiles
    private let metricsSink: MetricsDirectorySink?
    private let wall: any WallClock
    private let monotonic: any WallClock
    private var core: ReporterCore
    private var running = true
    /// Events the effects produced, handled in order before the loop waits again.
    private var pending: [ReporterEvent] = []
    /// When the core asked to be woken (monotonic ms).
    private var wakeAt: Int64?
    /// Why the status file could not be written last time (logged once per change).
    private var recordFailure: String?

    init(configuration: ReportConfiguration, key: ReportKey, transport: any HTTPTransport, logger: Logger,
         wall: any WallClock = SystemClock(), monotonic: any WallClock = MonotonicClock()) throws(CommandError) {
        self.configuration = configuration
        self.logger = logger
        self.transport = transport
        self.wall = wall
        self.monotonic = monotonic
        do {
            signals = try SignalSource([SignalSource.terminate, SignalSource.interrupt])
        } catch {
            throw CommandError(.software, error.description)
        }
        files = ReporterFiles(directory: configuration.reportDirectory)
        metricsSink = configuration.metricsDirectory.map { MetricsDirectorySink(directory: $0, prefix: "qrcheckin-report-") }
        let setup = ReporterSetup(venue: configuration.venue, kiosk: configuration.kiosk, version: Program.version,
                                  reportTo: configuration.reportTo, intervalSeconds: configuration.intervalSeconds, pid: CurrentProcess.id)
        core = ReporterCore(setup: setup, signer: ReportAuthenticator(key: key, authenticator: HMACAuthenticator()),
                            nonces: SystemNonces(), now: ReporterTime(monotonic: monotonic.now().milliseconds, wall: wall.now()))
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    func run() -> ExitCode {
        handle(.started(previous: ReporterFiles.read(configuration.reportDirectory)))
        handle(.observed(observe(live: true)))
        var nextObservation = monotonic.now().milliseconds + Self.observeEveryMilliseconds
        while running {
            let now = monotonic.now().milliseconds
            if let wake = wakeAt, wake <= monotonic.now().milliseconds {
                // A report may be due: the daemon's own word first, as `status` asks it.
                wakeAt = nil
                handle(.observed(observe(live: true)))
                handle(.tick)
                nextObservation = monotonic.now().milliseconds + Self.observeEveryMilliseconds
            } else if now >= nextObservation {
                // The files alone: a look a second costs the daemon nothing.
                handle(.observed(observe(live: false)))
                nextObservation = now + Self.observeEveryMilliseconds
            }
            guard running else { break }
            let until = min(nextObservation, wakeAt ?? .max) - monotonic.now().milliseconds
            let outcome: (results: [(id: Int, result: HTTPResult)], readable: Set<Int32>)
            do {
                outcome = try transport.wait(timeoutMilliseconds: Int32(clamping: max(0, until)), readable: [signals.descriptor.rawValue])
            } catch {
                logger.error("the reporter's event loop failed: \(error)")
                return .software
            }
            for (id, result) in outcome.results { handle(.completed(id: id, result)) }
            if outcome.readable.contains(signals.descriptor.rawValue), !signals.drain().isEmpty { handle(.stop) }
        }
        return .success
    }

    // MARK: - Events in, effects out

    private func handle(_ event: ReporterEvent) {
        pending.append(event)
        while !pending.isEmpty {
            let next = pending.removeFirst()
            let effects = core.handle(next, at: ReporterTime(monotonic: monotonic.now().milliseconds, wall: wall.now()))
            for effect in effects { perform(effect) }
        }
    }

    private func perform(_ effect: ReporterEffect) {
        switch effect {
        case .send(let id, let request):
            do {
                try transport.start(request, id: id)
            } catch {
                pending.append(.completed(id: id, .failure(error.message)))
            }
        case .cancel(let id):
            transport.cancel(id)
        case .apply(let steer):
            let outcome = apply(steer)
            pending.append(.steerApplied(KioskReport.Applied(steer: steer.id, at: wall.now().seconds, outcome: outcome), observe(live: true)))
        case .record(let status):
            record(status)
        case .log(let level, let line):
            logger.log(level, line)
        case .wake(let at):
            wakeAt = min(wakeAt ?? .max, at)
        case .exit:
            running = false
        }
    }

    /// Sends a steer's requests to the daemon as `ctl` would, naming the console's operator:
    /// `ok`, or the first refusal's code (`unreachable` when the socket did not answer).
    private func apply(_ steer: KioskSteer) -> String {
        let socket = configuration.daemon.socketPath
        let peer: ExpectedPeer?
        do {
            peer = try DaemonDirectory.lookUp(PathName.directory(of: socket)).map { ExpectedPeer(directory: $0) }
        } catch {
            logger.warning("console steer \(steer.id) not applied: \(DaemonDirectory.refusal(error))")
            return "untrusted"
        }
        var outcome = "ok"
        for line in steer.controlLines {
            do {
                let reply = JSONValueReply(text: try ControlClient.send(line, to: socket, peer: peer))
                if !reply.ok, outcome == "ok" { outcome = reply.value?["code"]?.string ?? "refused" }
                logger.info("console steer \(steer.id) by \(steer.by): \(Quoted(line)): " + (reply.ok ? "done" : reply.error))
            } catch {
                logger.warning("console steer \(steer.id) by \(steer.by): \(Quoted(line)): \(error)")
                if outcome == "ok" { outcome = "unreachable" }
            }
        }
        return outcome
    }

    /// The daemon's state now, as `status` judges it (`live`: asking the daemon too, as `status`
    /// does), with the outputs' ages and the uptime.
    private func observe(live: Bool) -> KioskObservation {
        let directory = configuration.daemon.outputDirectory
        let now = wall.now()
        let ages = KioskReport.OutputAges(png: FileAge.seconds(of: directory + "/current.png", now: now),
                                          json: FileAge.seconds(of: directory + "/current.json", now: now),
                                          txt: FileAge.seconds(of: directory + "/current.txt", now: now))
        var boot = timespec()
        let uptime = clock_gettime(CLOCK_BOOTTIME, &boot) == 0 ? Int64(boot.tv_sec) : nil
        switch DaemonProbe().evaluate(directory, socketPath: configuration.daemon.socketPath, live: live, now: { now }) {
        case .missing(let message), .refused(let message):
            return KioskObservation(status: .notRunning, summary: message, daemon: nil, outputAgeSeconds: ages, uptimeSeconds: uptime)
        case .report(let report, _, _):
            let document = report.document
            let daemon = KioskReport.Daemon(
                state: KioskReport.State(rawValue: document.phase.rawValue) ?? .stopped, window: document.window, seq: document.sequence,
                expiresAt: document.expiresAt, period: document.period, health: document.health, reason: document.reason,
                shake: document.shake, refresh: document.refresh, modeChange: document.modeChange,
                clockSynchronized: document.clock?.synchronized, clockMaxErrorSeconds: document.clock?.maxErrorSeconds)
            return KioskObservation(status: KioskReport.Status(rawValue: report.verdict.rawValue) ?? .notRunning, summary: report.summary,
                                    daemon: daemon, outputAgeSeconds: ages, uptimeSeconds: uptime)
        }
    }

    /// Writes `report.json` and `report.prom` (and the metrics directory's copy).
    private func record(_ status: ReporterStatus) {
        let metrics = ReporterMetrics(status: status).bytes
        var failure: String?
        do {
            try files.write(status, metrics: metrics)
        } catch {
            failure = "cannot write \(configuration.reportDirectory)/\(ReporterStatus.fileName): \(error)"
        }
        if let metricsSink {
            do {
                try metricsSink.write(metrics, venue: configuration.venue.rawValue)
            } catch {
                failure = failure ?? "cannot write metrics into \(metricsSink.directory): \(error)"
            }
        }
        if failure != recordFailure, let failure { logger.warning(failure + "; reporting goes on") }
        recordFailure = failure
    }
}

/// Nonces from the OS's CSPRNG (libsodium's randombytes_buf: getrandom(2)).
struct SystemNonces: ReportNonceSource {
    func next() -> ReportNonce { ReportNonce(bytes: SecureRandom.bytes(ReportNonce.byteCount)) }
}
