import KioskAdapters
import KioskCore
import KioskViews
import SharedCLI
import SharedDomain
import SharedQREncoder
import SharedSystem

/// The running daemon: the I/O shell around `DaemonCore`. One single-threaded poll loop turns
/// descriptors (wall-clock timer, signals, control socket, the output directory's inotify
/// watch) into core events and performs the effects the core returns. One thread means no
/// locks and no races: a signal or request is handled between writes, never during one.
/// Every decision is the core's; what is here is how to do it.
final class Daemon {
    private let configuration: DaemonConfiguration
    private let keys: KeySource
    private let environment: [String: String]
    private let logger: Logger
    private let clock: any WallClock
    private let monotonic: any WallClock
    private let notifier: SystemdNotifier
    private let settingsFile: SettingsFile
    private let sink: DirectorySink
    /// Where the clock's synchronisation is read with each event that needs it.
    private let clockSync = KernelClockSync()
    /// The code's files, published as one set; told when someone removes files.
    private let generations = OutputGenerations(names: OutputFile.codeFiles.map(\.name), announced: OutputFile.json.name)
    /// node_exporter's textfile directory (`metrics-dir`), if set.
    private let metricsSink: MetricsDirectorySink?
    private var core: DaemonCore
    /// The control socket; nil while its file is gone (until the core has it rebound).
    private var server: ControlServer?
    private let timer: WallTimer
    private let signals: SignalSource
    private let outputWatch: Inotify?
    private var isRunning = true
    private var exitCode = ExitCode.success
    /// How many of the socket's refusals (`ControlServer.refusedTotal`) the core has counted.
    private var reportedRefusals = 0
    /// The socket's rate-limited log line about refusals, not yet handed to the core.
    private var refusalNotice: String?

    /// Sets everything up: directories, saved settings, socket, signals. Nothing is written
    /// until `run()`.
    init(configuration: DaemonConfiguration, keys: KeySource, environment: [String: String],
         logger: Logger, clock: any WallClock = SystemClock(), monotonic: any WallClock = MonotonicClock()) throws(CommandError) {
        self.configuration = configuration
        self.keys = keys
        self.environment = environment
        self.logger = logger
        self.clock = clock
        self.monotonic = monotonic
        notifier = SystemdNotifier(environment: environment)
        // First: a venue key for another venue is refused before anything is created.
        let setup = try configuration.setup(keys: keys.keys)
        // Both directories pass the one trust check (docs/STATE.md, "Directory trust") before
        // anything goes in them; the output directory is checked again before every write.
        let outputs: OutputDirectory
        do {
            outputs = try OutputDirectory(path: configuration.outputDirectory, mode: 0o755)
            _ = try DirectoryTrust().open(configuration.stateDirectory, for: .publishing, creating: 0o700)
        } catch {
            throw CommandError(.cannotCreate, error.description)
        }
        do {
            // The socket first: it refuses when another daemon serves here, whose temporaries
            // must not be swept away below.
            server = try ControlServer(path: configuration.socketPath, group: configuration.opsGroup)
            // Every directory we write: a kill between writing and renaming leaves `.NAME.PID.RAND.tmp`,
            // and a kill before a set's switch (or after it) leaves a generation `current` does not name.
            let sets = generations
            let sweptSets = (try? outputs.current()).map { sets.sweep($0) } ?? []
            let swept = AtomicFile.removeTemporaries(of: OutputFile.names.map { configuration.outputDirectory + "/" + $0 }
                + [configuration.stateDirectory + "/settings", configuration.stateDirectory + "/" + SecretFile.fileName]
                + (configuration.secretFile.map { [$0] } ?? [])
                + (configuration.metricsDirectory.map { [MetricsDirectorySink(directory: $0).path(for: configuration.venue.rawValue)] } ?? []))
                + sweptSets
            if !swept.isEmpty { logger.notice("removed \(swept.count) temporary files left by a killed writer: \(swept.joined(separator: ", "))") }
            signals = try SignalSource([SignalSource.terminate, SignalSource.interrupt, SignalSource.hangup, SignalSource.user1])
            timer = try WallTimer()
        } catch {
            throw CommandError(error.isAddressInUse ? .unavailable : .cannotCreate,
                               error.isAddressInUse ? "another qrcheckin is already running on \(error.path)" : error.description)
        }
        // Removals in the output directory wake the loop: a removed socket is closed at once (an
        // open one would hold a removed directory back from being released), and a removed
        // directory comes back with its files as soon as `rm -rf` is done with it.
        outputWatch = try? Inotify(directory: configuration.outputDirectory, events: .removals)
        outputWatch?.watch()
        settingsFile = SettingsFile(path: configuration.stateDirectory + "/settings")
        sink = DirectorySink(directory: outputs, generations: generations)
        metricsSink = configuration.metricsDirectory.map { MetricsDirectorySink(directory: $0) }
        let saved: SavedSettings
        do {
            saved = try settingsFile.load().map(SavedSettings.loaded) ?? SavedSettings.none
        } catch {
            saved = .unreadable(reason: error.message)
        }
        core = DaemonCore(setup: setup, host: DaemonHost(
            pid: CurrentProcess.id, notifies: notifier.isEnabled, watchdogMilliseconds: notifier.watchdogMilliseconds, version: Program.version),
            issuers: VenueCodeIssuers(), saved: saved, now: clock.now(), clock: clockSync.read())
    }

    /// A client whose deadline passed while this turn ran (a tick writing to a slow disk) may
    /// have sent its line meanwhile: it is answered, not told it timed out.
    private func answerLateLines(handled: Set<Int32>) {
        guard let server, isRunning, let deadline = server.nextDeadline, deadline <= monotonic.now() else { return }
        guard let late = try? Poller.wait(readable: server.descriptors, timeoutMilliseconds: 0) else { return }
        for fd in server.descriptors where late.contains(fd) && !handled.contains(fd) && isRunning {
            server.handleReadable(fd, now: monotonic.now(), handle: answer, refused: refused)
        }
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    func run() -> ExitCode {
        send(.started(clock: clockSync.read()))
        while isRunning {
            // Client deadlines run on the monotonic clock: setting the wall clock back an hour
            // must not let silent clients hold their slots for an hour.
            let now = monotonic.now()
            let timeout = server?.nextDeadline.map { Int32(clamping: max(0, $0.milliseconds - now.milliseconds)) } ?? -1
            let fixed = [timer.descriptor.rawValue, signals.descriptor.rawValue, outputWatch?.descriptor ?? -1]
            let readable: Set<Int32>
            do {
                readable = try Poller.wait(readable: fixed.filter { $0 >= 0 } + (server?.descriptors ?? []), timeoutMilliseconds: timeout)
            } catch {
                logger.error("\(error)")
                return .software
            }
            if readable.contains(timer.descriptor.rawValue) {
                let clockWasSet = timer.acknowledge()
                checkSocket()
                send(.tick(clockWasSet: clockWasSet, clock: clockSync.read()))
                // Its directory came back late, or the tick's rebind or write has made it again
                // (the old one perhaps still held open by someone, and so still watched).
                outputWatch?.rewatch()
            }
            if readable.contains(signals.descriptor.rawValue) {
                for number in signals.drain() { if let signal = DaemonSignal(number) { send(.signal(signal)) } }
            }
            if let watch = outputWatch, readable.contains(watch.descriptor) { outputsChanged(watch.read()) }
            for fd in server?.descriptors ?? [] where readable.contains(fd) && isRunning {
                server?.handleReadable(fd, now: monotonic.now(), handle: answer, refused: refused)
            }
            answerLateLines(handled: readable)
            server?.expire(now: monotonic.now(), refused: refused)
            reportRefusals()
        }
        return exitCode
    }

    // MARK: - Events in

    @discardableResult
    private func send(_ event: DaemonEvent) -> DaemonEffectPerformer.Outcome {
        DaemonEffectPerformer(ports: self).send(event) { event, now in self.core.handle(event, at: now) }
    }

    private func answer(_ line: String, from peer: PeerCredentials) -> String {
        send(.request(line: line, peer: ControlPeer(uid: peer.uid, pid: peer.pid))).reply
            ?? ControlReply.error("the daemon is stopping", code: "stopping")
    }

    /// The control socket's log line about refused peers (already rate limited).
    private func refused(_ notice: RefusalNotice) {
        refusalNotice = notice.description
    }

    /// Every refusal of this loop turn, counted at once (one event, however many peers), with
    /// the log line if one is due.
    private func reportRefusals() {
        let total = server?.refusedTotal ?? reportedRefusals
        guard total != reportedRefusals || refusalNotice != nil, isRunning else { return }
        let count = max(0, total - reportedRefusals)
        reportedRefusals = total
        let notice = refusalNotice
        refusalNotice = nil
        send(.refused(count: count, notice: notice))
    }

    /// Once a tick: whether clients still reach the socket by its path (its file is ours and
    /// its directory is still the trusted one there).
    private func checkSocket() {
        if isRunning, let server, !server.isReachable() { send(.socketGone) }
    }

    /// Someone removed the socket or output files, or removed, replaced or re-moded the output
    /// directory: tell the core, whose next write walks the directory's path again (making it
    /// again when it is gone, refusing it while it is not trustworthy).
    private func outputsChanged(_ events: Inotify.Events) {
        guard isRunning else { return }
        let removedOutputs = !events.names.isDisjoint(with: OutputFile.names + [OutputGenerations.switchName, OutputGenerations.directoryName])
        if events.lostDirectory || removedOutputs {
            generations.forgetLayout()
            // Let go of the held directory: while any descriptor holds a removed directory, the
            // kernel does not say it is gone (IN_DELETE_SELF), and ours must not be the one.
            sink.directory.forget()
        }
        if PathName.directory(of: configuration.socketPath) == configuration.outputDirectory,
           events.names.contains(PathName.base(of: configuration.socketPath)) {
            send(.socketGone)
        }
        if removedOutputs { send(.outputsRemoved) }
        guard events.lostDirectory || events.changedDirectory else { return }
        sink.directory.forget()  // the held directory may be gone or loosened: walk the path again
        send(.outputsGone)
        outputWatch?.watch()  // the write has made it again, if it was gone
        checkSocket()
    }
}

// MARK: - Effects out: the real adapters (`DaemonEffectPerformer` performs through them)

extension Daemon: DaemonPorts {
    func renderer(for look: OutputLook) -> any FrameRendering {
        OutputRenderer(encoder: QRCodeEncoder(), png: PNGEncoder(scale: look.scale, margin: look.margin))
    }

    var outputs: any OutputSink { sink }

    var metricsDirectory: String? { metricsSink?.directory }

    func copyMetrics(_ bytes: [UInt8], venue: String) throws(OutputSinkError) {
        try metricsSink?.write(bytes, venue: venue)
    }

    var store: any SettingsStore { settingsFile }

    /// SIGHUP: the config file and the secret, read again. Restart-only settings are the
    /// core's to keep; the secret comes from the file found at start.
    func reload() -> DaemonEvent {
        do {
            let reloaded = try DaemonConfiguration(flags: configuration.flags, environment: environment)
            return .reloaded(try reloaded.setup(keys: try keys.read()), clock: clockSync.read())
        } catch {
            return .reloadFailed(message: error.message)
        }
    }

    func closeSocket() {
        reportRefusals()  // the closed server's count goes with it
        server?.shutdown()
        server = nil
    }

    func rebindSocket() -> String? {
        closeSocket()
        do {
            // Its directory passes the trust check first (made again when missing).
            server = try ControlServer(path: configuration.socketPath, group: configuration.opsGroup)
            reportedRefusals = 0  // a new server counts from zero
            return nil
        } catch {
            return error.description
        }
    }

    func notify(_ message: String) { notifier.notify(message) }

    func log(_ level: LogLevel, _ line: String) { logger.log(level, line) }

    func armTimer(at time: WallTime) -> String? {
        do {
            try timer.arm(at: time)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func exit(_ status: DaemonExit) {
        exitCode = status == .stopped ? .success : .software
        isRunning = false
    }

    func now() -> WallTime { clock.now() }
}

extension DaemonConfiguration {
    /// What the core runs on. A venue key serves its own venue only: any other is refused here,
    /// at start (exit 78, nothing written) and on reload (the running configuration is kept).
    func setup(keys: SigningKeySource) throws(CommandError) -> DaemonSetup {
        do {
            _ = try keys.key(for: venue, authenticator: HMACAuthenticator())
        } catch {
            throw CommandError(.config, "cannot serve venue \(venue): \(error.description)")
        }
        return DaemonSetup(
            codes: CodeSource(venue: venue, period: period, baseURL: baseURL, keys: keys),
            look: OutputLook(scale: scale, margin: margin, level: level),
            outputDirectory: outputDirectory, socketPath: socketPath,
            restartOnly: [RestartOnlySetting("output-dir", outputDirectory), RestartOnlySetting("state-dir", stateDirectory),
                          RestartOnlySetting("socket", socketPath), RestartOnlySetting("secret-file", secretFile ?? ""),
                          RestartOnlySetting("ops-group", opsGroup.map { String($0) } ?? ""),
                          RestartOnlySetting("metrics-dir", metricsDirectory ?? "")],
            requireClockSync: requireClockSync)
    }
}

extension DaemonSignal {
    /// The signal with this number, if the daemon handles it.
    init?(_ number: Int32) {
        switch number {
        case SignalSource.terminate: self = .terminate
        case SignalSource.interrupt: self = .interrupt
        case SignalSource.hangup: self = .hangup
        case SignalSource.user1: self = .user1
        default: return nil
        }
    }
}

/// The real issuers: HMAC-SHA256 from `HMACAuthenticator` (Nettle, else libsodium).
struct VenueCodeIssuers: CodeIssuerMaking {
    func issuer(for source: CodeSource) -> any CheckInCodeIssuing {
        // `DaemonConfiguration.setup(keys:)`, the only maker of a CodeSource here, has checked
        // that the key serves the venue.
        try! VenueCodeIssuer(venue: source.venue, keys: source.keys, baseURL: source.baseURL,
                             period: source.period, authenticator: HMACAuthenticator())
    }
}
