import KioskCore
import KioskViews
import SharedDomain

/// Plays the daemon's I/O shell for `DaemonCore` in memory: the daemon's own effect code
/// (`DaemonEffectPerformer`) runs against in-memory ports (a real `OutputRenderer` into a
/// `MemoryDisk`, settings into a `MemoryStore`), and everything is recorded for the test to read.
final class TestShell: DaemonPorts {
    let clock: TestClock
    let disk = MemoryDisk()
    let memoryStore = MemoryStore()
    let clockSync: FakeClockSync
    var core: DaemonCore
    /// Every effect performed, in order (nested results included).
    var effects: [DaemonEffect] = []
    /// The setups the next `.reloadConfiguration` effects return (nil: a failed reload).
    var reloads: [DaemonSetup?] = []
    var socketRebindFails = false
    /// The textfile collector's directory (`metrics-dir`), if the test sets one.
    var metricsDirectory: String?
    /// Whether copying metrics there fails, and the copies made.
    var metricsCopyFails = false
    var metricsCopies: [[UInt8]] = []
    /// The timer refuses to be armed when set.
    var timerFails = false
    /// How the loop ended, once it has.
    var exited: DaemonExit?

    init(setup: DaemonSetup = TestShell.setup(), host: DaemonHost = DaemonHost(pid: 42),
         saved: SavedSettings = .none, seconds: Int64 = 1_800_000_000, clockSync: FakeClockSync = FakeClockSync()) {
        clock = TestClock(seconds: seconds)
        self.clockSync = clockSync
        core = DaemonCore(setup: setup, host: host, issuers: FakeIssuers(), saved: saved, now: clock.now(), clock: clockSync.read())
    }

    static let secret = try! MasterSecret(bytes: Array(repeating: 7, count: 32))

    static func setup(venue: String = "DEMO", period: Int = 15, scale: Int = 8, secret: MasterSecret = secret,
                      outputDirectory: String = "/out", requireClockSync: Bool = false) -> DaemonSetup {
        DaemonSetup(codes: CodeSource(venue: try! VenueID(venue), period: try! RotationPeriod(seconds: period),
                                      baseURL: "HTTPS://X/C", keys: .master(secret)),
                    look: OutputLook(scale: scale), outputDirectory: outputDirectory, socketPath: outputDirectory + "/control.sock",
                    restartOnly: [RestartOnlySetting("output-dir", outputDirectory), RestartOnlySetting("socket", outputDirectory + "/control.sock")],
                    requireClockSync: requireClockSync)
    }

    /// Sends one event now; returns the effects it caused (results included), in order.
    @discardableResult
    func send(_ event: DaemonEvent) -> [DaemonEffect] {
        perform(event).effects
    }

    /// Sends one event through the daemon's effect performer; records its effects.
    private func perform(_ event: DaemonEvent) -> DaemonEffectPerformer.Outcome {
        let outcome = DaemonEffectPerformer(ports: self).send(event) { event, now in self.core.handle(event, at: now) }
        effects += outcome.effects
        return outcome
    }

    /// The daemon starts, with the clock's synchronisation read now.
    @discardableResult
    func start() -> [DaemonEffect] {
        send(.started(clock: clockSync.read()))
    }

    /// Advances the clock by `milliseconds` and ticks, with the clock's synchronisation read then.
    @discardableResult
    func tick(after milliseconds: Int64 = 0, clockWasSet: Bool = false) -> [DaemonEffect] {
        clock.advance(milliseconds: milliseconds)
        return send(.tick(clockWasSet: clockWasSet, clock: clockSync.read()))
    }

    /// Sends a control request and returns the reply line.
    func request(_ line: String, uid: UInt32 = 0) -> String? {
        perform(.request(line: line, peer: ControlPeer(uid: uid, pid: 99))).reply
    }

    // MARK: - The ports, in memory

    func renderer(for look: OutputLook) -> any FrameRendering { OutputRenderer(encoder: TinyEncoder(), png: BlankPNG()) }
    var outputs: any OutputSink { disk }
    func copyMetrics(_ bytes: [UInt8], venue: String) throws(OutputSinkError) {
        if metricsCopyFails { throw OutputSinkError("cannot open /metrics: No such file or directory") }
        metricsCopies.append(bytes)
    }
    var store: any SettingsStore { memoryStore }
    func reload() -> DaemonEvent {
        let next = reloads.isEmpty ? nil : reloads.removeFirst()
        return next.map { .reloaded($0, clock: clockSync.read()) } ?? .reloadFailed(message: "/etc/q.conf:2: period: bad")
    }
    func closeSocket() {}
    func rebindSocket() -> String? { socketRebindFails ? "cannot listen on /out/control.sock: refused" : nil }
    func notify(_ message: String) {}
    func log(_ level: LogLevel, _ line: String) {}
    func armTimer(at time: WallTime) -> String? { timerFails ? "cannot arm the timer: Invalid argument" : nil }
    func exit(_ status: DaemonExit) { exited = status }
    func now() -> WallTime { clock.now() }

    // MARK: - Reading the record

    static func logs(_ effects: [DaemonEffect]) -> [String] {
        effects.compactMap { if case .log(_, let line) = $0 { line } else { nil } }
    }
    static func writes(_ effects: [DaemonEffect]) -> [OutputFrame] {
        effects.compactMap { if case .writeOutputs(let frame) = $0 { frame } else { nil } }
    }
    static func timers(_ effects: [DaemonEffect]) -> [WallTime] {
        effects.compactMap { if case .armTimer(let at) = $0 { at } else { nil } }
    }
    static func notifications(_ effects: [DaemonEffect]) -> [String] {
        effects.compactMap { if case .notify(let text) = $0 { text } else { nil } }
    }
    var logs: [String] { Self.logs(effects) }
    /// metrics.prom as written last.
    var metrics: String? { disk.files["metrics.prom"].map { String(decoding: $0, as: UTF8.self) } }
}
