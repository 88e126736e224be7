import CheckInData
import CheckInDomain
import CheckInPresentation
import Glibc

/// The running daemon: the composition root's product. Binds the view model to its views
/// (files, systemd status, log) and feeds it inputs from one single-threaded poll loop
/// (wall-clock timer, signals, control socket). One thread means no locks and no races:
/// a signal or request is handled between writes, never during one.
final class Daemon {
    private var configuration: DaemonConfiguration
    private let keys: SigningKeySource
    private let environment: [String: String]
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let clock: any WallClock
    private let viewModel: CheckInViewModel
    private var outputView: OutputView
    private var server: ControlServer
    private let timer: WallTimer
    private let signals: SignalSource
    private var isReady = false
    private var isRunning = true
    /// Whether the timer must be armed again before the next wait.
    private var timerNeedsArming = true
    /// The `STATUS=` line not yet sent: sent once per loop turn, with the watchdog ping.
    private var pendingStatus: String?

    /// Sets everything up: directories, saved settings, socket, signals. Nothing is written yet
    /// except the first code's files.
    init(configuration: DaemonConfiguration, keys: SigningKeySource, environment: [String: String],
         logger: Logger, clock: any WallClock = SystemClock()) throws(CommandError) {
        // First: a venue key for another venue must refuse before anything is created.
        let issuer = try Self.issuer(configuration, keys)
        self.configuration = configuration
        self.keys = keys
        self.environment = environment
        self.logger = logger
        self.clock = clock
        notifier = SystemdNotifier(environment: environment)
        do {
            try TextFile.makeDirectory(configuration.outputDirectory, mode: 0o755)
            try TextFile.makeDirectory(configuration.stateDirectory, mode: 0o700)
        } catch {
            throw CommandError(.cannotCreate, error.description)
        }
        for directory in [configuration.outputDirectory, configuration.stateDirectory] {
            if let problem = TextFile.ownershipProblem(of: directory) {
                throw CommandError(.cannotCreate, "refusing to use \(directory): \(problem)")
            }
        }
        do {
            // The socket first: it refuses when another daemon serves here, whose temporaries
            // must not be swept away below.
            server = try ControlServer(path: configuration.socketPath, group: configuration.opsGroup)
            // Every directory we write: a kill between writing and renaming leaves `.NAME.PID.RAND.tmp`.
            let swept = AtomicFile.removeTemporaries(of: OutputView.fileNames.map { configuration.outputDirectory + "/" + $0 }
                + [configuration.stateDirectory + "/settings", configuration.stateDirectory + "/" + SecretFile.fileName]
                + (configuration.secretFile.map { [$0] } ?? []))
            if !swept.isEmpty { logger.notice("removed \(swept.count) temporary files left by a killed writer: \(swept.joined(separator: ", "))") }
            signals = try SignalSource([SIGTERM, SIGINT, SIGHUP, SIGUSR1])
            timer = try WallTimer()
        } catch {
            throw CommandError(error.code == EADDRINUSE ? .unavailable : .cannotCreate,
                               error.code == EADDRINUSE ? "another qrcheckin is already running on \(error.path)" : error.description)
        }
        let store = SettingsFile(path: configuration.stateDirectory + "/settings")
        var settings = OperatorSettings()
        do {
            settings = try store.load() ?? settings
        } catch {
            // Fail closed: a venue that was paused must not start showing codes because its
            // settings file was damaged. The file stays as it is until an operator sets a mode.
            settings = OperatorSettings(shake: .on, refresh: .paused)
            logger.error("cannot use the saved settings: \(error.message); starting paused (qrcheckin ctl refresh auto resumes)")
        }
        viewModel = CheckInViewModel(issuer: issuer, clock: clock, store: store, settings: settings)
        // The real view reports back to the view model through `self`, which Swift lets a
        // closure capture only once every property is set: a silent placeholder goes first.
        outputView = OutputView(configuration: configuration, report: { _ in })
        outputView = makeOutputView()
        bindViews()
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    func run() -> ExitCode {
        logger.notice("serving venue \(configuration.venue) every \(configuration.period.seconds)s: "
            + "writing \(configuration.outputDirectory)/current.{png,json,txt}, control socket \(configuration.socketPath)")
        announceReadiness()
        // Under systemd the countdown in STATUS= wants a tick every second. Windows start at
        // whole seconds, so one repeating 1 s timer also hits every boundary; otherwise the
        // timer is armed for each boundary.
        let everySecond = notifier.isEnabled
        while isRunning {
            if timerNeedsArming {
                do {
                    if everySecond {
                        try timer.arm(at: WallTime(seconds: clock.now().seconds + 1), intervalMilliseconds: 1000)
                    } else {
                        try timer.arm(at: viewModel.nextBoundary())
                    }
                } catch {
                    logger.error("\(error)")
                    return .software
                }
                timerNeedsArming = false
            }
            // Client deadlines run on the monotonic clock: setting the wall clock back an hour
            // must not let silent clients hold their slots for an hour.
            let now = MonotonicClock().now()
            let timeout = server.nextDeadline.map { Int32(clamping: max(0, $0.milliseconds - now.milliseconds)) } ?? -1
            let watched = [timer.descriptor.rawValue, signals.descriptor.rawValue] + server.descriptors
            let readable: Set<Int32>
            do {
                readable = try Poller.wait(readable: watched, timeoutMilliseconds: timeout)
            } catch {
                logger.error("\(error)")
                return .software
            }
            let ticked = readable.contains(timer.descriptor.rawValue)
            if ticked {
                let clockWasSet = timer.acknowledge()
                timerNeedsArming = clockWasSet || !everySecond
                tick(clockWasSet: clockWasSet)
            }
            if readable.contains(signals.descriptor.rawValue) { signals.drain().forEach(handle) }
            for fd in watched.dropFirst(2) where readable.contains(fd) {
                server.handleReadable(fd, now: MonotonicClock().now(), handle: answer, refused: logRefusal)
            }
            server.expire(now: MonotonicClock().now(), refused: logRefusal)
            flushNotifications(watchdog: ticked)
        }
        notifier.notify("STOPPING=1")
        viewModel.send(.stopRequested)
        server.shutdown()
        logger.notice("stopped")
        return .success
    }

    // MARK: - Inputs

    private func tick(clockWasSet: Bool) {
        if clockWasSet { logger.notice("the wall clock was set; re-checking the window") }
        viewModel.send(.timerTicked)
        // A deleted socket (or output directory) comes back, before any retry writes into it.
        rebindSocketIfGone()
        if outputView.isFailing { outputView.render(viewModel.state, force: true) }
        announceReadiness()
    }

    /// One datagram per loop turn: the latest status and, after a tick, the watchdog ping.
    private func flushNotifications(watchdog: Bool) {
        guard notifier.isEnabled else { return }
        var lines: [String] = pendingStatus.map { [$0] } ?? []
        if watchdog && notifier.watchdogMilliseconds != nil { lines.append("WATCHDOG=1") }
        pendingStatus = nil
        if !lines.isEmpty { notifier.notify(lines.joined(separator: "\n")) }
    }

    private func handle(_ signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT:
            logger.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); stopping")
            isRunning = false
        case SIGHUP:
            reload()
        case SIGUSR1:
            viewModel.send(.shakeRequested)
        default:
            break
        }
    }

    /// Logs peers the control socket refused (already rate limited by the server).
    private func logRefusal(_ notice: RefusalNotice) {
        logger.warning("control socket: \(notice)")
    }

    /// Answers one control request with the resulting state.
    private func answer(_ line: String, from peer: PeerCredentials) -> String {
        let request: ControlRequest
        do {
            request = try ControlRequest(line: line)
        } catch {
            return ControlServer.error(error.message)
        }
        if let input = request.input { viewModel.send(input) }
        let document = StateDocument(state: viewModel.state, venue: configuration.venue, period: configuration.period, pid: getpid())
        let reply = ControlReply.text(for: request, state: viewModel.state, document: document)
        if request.input != nil {
            // A request turned down (paused, shake off) is logged as the refusal it is.
            let answer = JSONValueReply(text: reply)
            logger.info(answer.ok ? "control: '\(line)' from uid \(peer.uid)"
                                  : "control: refused '\(line)' from uid \(peer.uid): \(answer.error)")
        }
        return reply
    }

    /// SIGHUP: reads the config file again. An invalid file is reported and the running
    /// configuration kept; settings that need new sockets or directories wait for a restart.
    private func reload() {
        let reloaded: DaemonConfiguration
        do {
            reloaded = try DaemonConfiguration(flags: configuration.flags, environment: environment)
        } catch {
            logger.error("reload failed, keeping the running configuration: \(error.message)")
            return
        }
        var fixed = reloaded
        let issuer: VenueCodeIssuer
        do {
            issuer = try Self.issuer(reloaded, keys)
        } catch {
            logger.error("reload failed, keeping the running configuration: \(error.message)")
            return
        }
        for (name, keep) in [("output-dir", reloaded.outputDirectory == configuration.outputDirectory),
                             ("state-dir", reloaded.stateDirectory == configuration.stateDirectory),
                             ("socket", reloaded.socketPath == configuration.socketPath),
                             ("secret-file", reloaded.secretFile == configuration.secretFile),
                             ("ops-group", reloaded.opsGroup == configuration.opsGroup)] where !keep {
            logger.warning("reload: \(name) changes take effect at the next restart")
        }
        fixed.outputDirectory = configuration.outputDirectory
        fixed.stateDirectory = configuration.stateDirectory
        fixed.socketPath = configuration.socketPath
        fixed.secretFile = configuration.secretFile
        fixed.opsGroup = configuration.opsGroup
        let codesChange = fixed.venue != configuration.venue || fixed.baseURL != configuration.baseURL
            || fixed.period != configuration.period
        configuration = fixed
        let replaced = outputView
        outputView = makeOutputView()
        outputView.continueFrom(replaced)
        if codesChange {
            viewModel.replaceIssuer(issuer)
            timerNeedsArming = true  // the period may have changed
        }
        // Written already if a new code was issued; otherwise the new view (another scale, say)
        // draws the current state now.
        outputView.render(viewModel.state)
        logger.notice("reloaded configuration: venue \(configuration.venue), period \(configuration.period.seconds)s")
    }

    // MARK: - Views

    /// The venue's issuer; the key is derived once here, not per code. A venue key for another
    /// venue is a configuration error.
    private static func issuer(_ configuration: DaemonConfiguration, _ keys: SigningKeySource) throws(CommandError) -> VenueCodeIssuer {
        do {
            return try VenueCodeIssuer(venue: configuration.venue, keys: keys, baseURL: configuration.baseURL,
                                       period: configuration.period, authenticator: SodiumAuthenticator())
        } catch {
            throw CommandError(.config, "cannot serve venue \(configuration.venue): \(error.description)")
        }
    }

    private func makeOutputView() -> OutputView {
        OutputView(configuration: configuration, report: { [unowned self] input in viewModel.send(input) })
    }

    private func bindViews() {
        var previous: CheckInState?
        viewModel.bind { [unowned self] state in
            outputView.render(state)
            if notifier.isEnabled { pendingStatus = "STATUS=" + StatusLine.text(for: state, venue: configuration.venue.rawValue) }
            if let previous { DaemonLog.changes(from: previous, to: state, logger: logger) }
            previous = state
        }
        viewModel.bindNotices { [unowned self] notice in
            switch notice {
            case .shakeIgnored: logger.notice("shake ignored: shake mode is off")
            case .settingsNotSaved(let reason): logger.error("settings changed but not saved: \(reason)")
            }
        }
    }

    /// READY=1 once the first code is on disk (systemd starts dependants only then).
    private func announceReadiness() {
        guard !isReady, !outputView.isFailing else { return }
        isReady = true
        notifier.notify("READY=1")
    }

    /// Recreates the control socket when its file is gone (deleted on its own, or with the
    /// output directory). One lstat per tick when all is well.
    private func rebindSocketIfGone() {
        var status = stat()
        guard lstat(configuration.socketPath, &status) != 0 else { return }
        do {
            try TextFile.makeDirectory(configuration.outputDirectory, mode: 0o755)
            try TextFile.makeDirectory(PathName.directory(of: configuration.socketPath), mode: 0o755)
            server.shutdown()
            server = try ControlServer(path: configuration.socketPath, group: configuration.opsGroup)
            logger.notice("recreated the control socket \(configuration.socketPath)")
        } catch {
            // Still failing; the output view reports it as degraded and we retry next tick.
        }
    }
}

extension OutputView {
    /// The file views for a configuration: libqrencode, libpng, the output directory.
    convenience init(configuration: DaemonConfiguration, report: @escaping (CheckInViewModelInput) -> Void) {
        self.init(encoder: QRCodeEncoder(), png: PNGEncoder(scale: configuration.scale, margin: configuration.margin),
                  sink: DirectorySink(directory: configuration.outputDirectory), venue: configuration.venue,
                  period: configuration.period, level: configuration.level, pid: getpid(), report: report)
    }
}
