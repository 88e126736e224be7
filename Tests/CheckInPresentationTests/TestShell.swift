import CheckInDomain
import CheckInPresentation

/// Plays the daemon's I/O shell for `DaemonCore` in memory: performs each effect the way
/// `Daemon` does (writes through a real `OutputRenderer` into a `MemoryDisk`, settings into a
/// `MemoryStore`), feeds results back as events, and records everything for the test to read.
final class TestShell {
    let clock: TestClock
    let disk = MemoryDisk()
    let store = MemoryStore()
    let clockSync: FakeClockSync
    var core: DaemonCore
    /// Every effect performed, in order (nested results included).
    var effects: [DaemonEffect] = []
    /// The setups the next `.reloadConfiguration` effects return (nil: a failed reload).
    var reloads: [DaemonSetup?] = []
    var socketRebindFails = false
    var exited = false

    init(setup: DaemonSetup = TestShell.setup(), host: DaemonHost = DaemonHost(pid: 42),
         saved: SavedSettings = .none, seconds: Int64 = 1_800_000_000, clockSync: FakeClockSync = FakeClockSync()) {
        clock = TestClock(seconds: seconds)
        self.clockSync = clockSync
        core = DaemonCore(setup: setup, host: host, issuers: FakeIssuers(), saved: saved, now: clock.now(), clockSync: clockSync)
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
        let start = effects.count
        perform(core.handle(event, at: clock.now()))
        return Array(effects[start...])
    }

    /// Advances the clock by `milliseconds` and ticks.
    @discardableResult
    func tick(after milliseconds: Int64, clockWasSet: Bool = false) -> [DaemonEffect] {
        clock.advance(milliseconds: milliseconds)
        return send(.tick(clockWasSet: clockWasSet))
    }

    /// Sends a control request and returns the reply line.
    func request(_ line: String, uid: UInt32 = 0) -> String? {
        send(.request(line: line, peer: ControlPeer(uid: uid, pid: 99))).compactMap { effect -> String? in
            if case .reply(let text) = effect { text } else { nil }
        }.last
    }

    private func perform(_ batch: [DaemonEffect]) {
        for effect in batch {
            effects.append(effect)
            switch effect {
            case .writeOutputs(let frame):
                let renderer = OutputRenderer(encoder: TinyEncoder(), png: BlankPNG())
                do {
                    try disk.replaceTogether(try renderer.files(for: frame))
                    perform(core.handle(.outputsWritten, at: clock.now()))
                } catch {
                    perform(core.handle(.outputsFailed(reason: error.message), at: clock.now()))
                }
            case .saveSettings(let state):
                do {
                    try store.save(state)
                    perform(core.handle(.settingsSaved, at: clock.now()))
                } catch {
                    perform(core.handle(.settingsNotSaved(reason: error.message), at: clock.now()))
                }
            case .reloadConfiguration:
                let next = reloads.isEmpty ? nil : reloads.removeFirst()
                perform(core.handle(next.map(DaemonEvent.reloaded) ?? .reloadFailed(message: "/etc/q.conf:2: period: bad"), at: clock.now()))
            case .rebindSocket:
                perform(core.handle(socketRebindFails ? .socketRebindFailed(reason: "cannot listen on /out/control.sock: refused")
                                                      : .socketRebound, at: clock.now()))
            case .exit:
                exited = true
            case .reply, .notify, .log, .armTimer, .closeSocket:
                break
            }
        }
    }

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
