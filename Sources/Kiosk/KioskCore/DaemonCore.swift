import SharedDomain

/// Everything the daemon decides, as one value: events in (`handle(_:at:)`), effects out.
///
/// No clock, no files, no sockets: the shell (`Daemon` in the executable) reads the time,
/// turns descriptors into `DaemonEvent`s and performs the `DaemonEffect`s, reporting results
/// back as events. Tests drive it with times of their choosing and read the effects.
///
/// Outputs follow one rule (docs/STATE.md): every file of a state is put in place together or
/// none is; when they cannot be, `current.json` alone is rewritten to say `degraded` about the
/// code still on disk, as soon as that can be written. No code is published before its
/// `(window, seq)` is saved with the settings; when they cannot be saved, codes pause (fail
/// closed). Replies and `STATUS=` say what the files on disk show.
///
/// The core decides what each event means and delegates the rest to small values named for
/// their role: `DaemonLifecycle` (what may follow what), `OutputWriteScheduler` (what to save
/// and write next, and what is on disk), `TimerPlan` (when to wake, and the watchdog's ping),
/// `SocketRebinding`, `ShakeLimit`, `StateDocumentCache` and `PendingControlReply`.
public struct DaemonCore: Sendable {
    /// The code model: phase, codes, operator settings, health.
    public private(set) var model: CheckInViewModel
    /// The running configuration: the one home of venue and period (`setup.codes`).
    public private(set) var setup: DaemonSetup
    /// Facts about the process.
    public let host: DaemonHost
    /// What has happened so far, for monitoring.
    public private(set) var counters = DaemonCounters()
    /// When the timer was last armed to fire (nil: it has fired, or was never armed).
    public var armed: WallTime? { timer.armed }
    /// Where the daemon is in its life (`DaemonLifecycle` says what may follow what).
    public private(set) var lifecycle = DaemonLifecycle.starting
    /// Whether the daemon is on its way out (SIGTERM or SIGINT arrived).
    public var isStopping: Bool { lifecycle.isStopping }
    /// Shakes honoured at most once a second (`ShakeLimit`).
    private var shakeLimit = ShakeLimit()

    private let issuers: any CodeIssuerMaking
    /// Whether copying `metrics.prom` into `metrics-dir` failed last time (logged when it
    /// starts failing and when it works again, not at every write).
    private var metricsCopyFailing = false
    private let savedSettingsProblem: String?
    /// What to save and write next, and what the files on disk show.
    private var writes: OutputWriteScheduler
    /// When the timer fires next, and the watchdog's ping.
    private var timer = TimerPlan()
    /// Whether the control socket is closed (its file went away) and when to bind it again.
    private var socket = SocketRebinding()
    /// A request whose reply waits for the save and the write it caused, and what became of it.
    private var pendingReply: PendingControlReply?
    /// The last `STATUS=` sent (sent again only when it changes).
    private var lastStatus: String?
    /// `current.json`'s text, serialised once per state.
    private var documents = StateDocumentCache()

    /// Creates the core for `setup` with the state an earlier run saved. A damaged state file
    /// starts paused (fail closed): a venue that was paused must not start showing codes. A
    /// record that is damaged, or missing from a file that exists (written before records were
    /// kept), counts as lost now: codes wait for the next window, which nothing issued yet.
    /// `clock` is the clock's synchronisation read at `now`.
    public init(setup: DaemonSetup, host: DaemonHost, issuers: any CodeIssuerMaking, saved: SavedSettings, now: WallTime,
                clock: ClockSync = .unknown) {
        self.setup = setup
        self.host = host
        self.issuers = issuers
        let settings: OperatorSettings
        let record: IssueRecord
        let persisted: SavedState?
        switch saved {
        case .none:
            settings = OperatorSettings()
            record = IssueRecord()
            savedSettingsProblem = nil
            persisted = nil
        case .loaded(let loaded):
            settings = loaded.settings
            record = loaded.issued.highWater == nil ? .lost(at: now.seconds) : loaded.issued
            savedSettingsProblem = nil
            persisted = loaded
        case .unreadable(let reason):
            settings = OperatorSettings(shake: .on, refresh: .paused, change: ModeChange(source: .daemon, by: nil, at: now.seconds))
            record = .lost(at: now.seconds)
            savedSettingsProblem = reason
            // The damaged file stays until an operator acts: nothing to save before then.
            persisted = SavedState(settings: settings, issued: record)
        }
        writes = OutputWriteScheduler(persisted: persisted)
        model = CheckInViewModel(issuer: issuers.issuer(for: setup.codes), settings: settings, record: record, now: now,
                                 clock: clock, clockRequired: setup.requireClockSync)
        // The model issued the first code as it was made: it counts like any other.
        if model.state.code != nil {
            counters.rotations[.window] = 1
            counters.lastRotation = now
        }
    }

    /// The state as the socket and `STATUS=` show it: what the files on disk show (the model's
    /// own until something is written), with the daemon's live health.
    public var state: CheckInState {
        guard var shown = writes.onDisk else { return model.state }
        shown.health = model.state.health
        return shown
    }

    /// Handles one event that happened at `now`; returns what to do, in order.
    public mutating func handle(_ event: DaemonEvent, at now: WallTime) -> [DaemonEffect] {
        guard !lifecycle.hasExited else { return [] }
        var step = Step(now: now, before: model.state)
        switch event {
        case .started(let clock):
            timer.started(at: now)
            if let problem = savedSettingsProblem {
                step.log(.error, "cannot use the saved settings: \(problem); starting paused (qrcheckin ctl refresh auto resumes)")
            }
            step.log(.notice, "serving venue \(setup.codes.venue) every \(setup.codes.period.seconds)s: writing "
                + "\(setup.outputDirectory)/{\(OutputFile.names.joined(separator: ","))}, control socket \(setup.socketPath)")
            checkClock(clock, &step)
            switch model.state.clock.synchronized {
            case false?:
                step.log(.warning, StateChangeLog.clockUnsynchronized(model.state.clock))
            case nil:
                step.log(.info, "cannot tell whether the clock is synchronised (adjtimex not allowed here and no "
                    + "timesyncd flag): no clock warning will be shown")
            case true?:
                break
            }
            if model.state.phase == .waitingForClock {
                step.log(.notice, "waiting for the clock to synchronise (require-clock-sync = yes): no code is shown")
            }
        case .tick(let clockWasSet, let clock):
            if clockWasSet { step.log(.notice, "the wall clock was set; re-checking the window") }
            timer.fired()  // spent; the tick's watchdog ping is due
            writes.retryHeld()  // retry what failed
            // A deleted socket comes back first, before any retry writes beside it.
            rebindIfDue(&step)
            checkClock(clock, &step)
            step.forceWrite = model.outputsFailing  // retry the outputs
        case .signal(let signal):
            handle(signal, &step)
        case .request(let line, let peer):
            counters.requests += 1
            do {
                let (request, actor, text) = try ControlRequest.parse(line)
                // Who asked, when the request says so: `'refresh pause' by console:mina`.
                let asked = Quoted(text).description + (actor == .anonymous ? "" : " by \(actor)")
                pendingReply = PendingControlReply(request: request)
                if request == .shake && coalescesShake(at: step.now) {
                    // Answered with the code the last shake issued, less than a second ago.
                } else if let input = request.input {
                    // An operator's change is a good moment to retry a failing save and failing
                    // outputs; either result goes into the reply.
                    step.forceWrite = model.outputsFailing
                    writes.retrySave()
                    writes.operatorAsked()
                    // A request turned down (paused, shake off) is logged as the refusal it is.
                    if let refusal = ControlReply.refusal(for: request, settings: model.state.settings) {
                        step.log(.info, "control: refused \(asked) from uid \(peer.uid): \(refusal.message)")
                    } else {
                        step.log(.info, "control: \(asked) from uid \(peer.uid)")
                    }
                    apply(input, by: actor, &step)
                }
            } catch {
                step.effects.append(.reply(ControlReply.error(error.message)))
            }
        case .refused(let count, let notice):
            counters.refusals += count
            if let notice { step.log(.warning, "control socket: \(notice)") }
        case .reloaded(let reloaded, let clock):
            reload(reloaded, clock: clock, &step)
        case .reloadFailed(let message):
            step.log(.error, "reload failed, keeping the running configuration: \(message)")
        case .metricsCopied(let directory, let failure):
            if let failure, !metricsCopyFailing {
                step.log(.warning, "cannot write metrics into \(directory): \(failure)")
            } else if failure == nil, metricsCopyFailing {
                step.log(.notice, "metrics are written into \(directory) again")
            }
            metricsCopyFailing = failure != nil
        case .timerFailed(let reason):
            step.log(.error, reason)
            exit(.software, &step)
        case .outputsWritten:
            written(&step)
        case .outputsFailed(let reason):
            failed(reason, &step)
        case .outputsGone:
            // Someone removed or replaced the directory (and is done with it), or changed its
            // owner or mode: every file, and a removed socket, come back at once (or are refused).
            writes.outputsGone()
            step.forceWrite = !isStopping
            if !isStopping { rebindIfDue(&step) }
        case .outputsRemoved:
            // Put back, with the socket, once the removal has settled, never at once: `rm -rf`
            // may still be emptying the directory. The same state: a removal is no reason for a code.
            if !isStopping { writes.outputsRemoved(at: step.now) }
        case .settingsSaved:
            guard let forceWriteAfter = writes.saved() else { break }
            step.forceWrite = forceWriteAfter
            if model.stateFailing { apply(.stateSaved, &step) }
        case .settingsNotSaved(let reason):
            guard let forceWriteAfter = writes.notSaved() else { break }
            step.forceWrite = forceWriteAfter
            counters.saveFailures += 1
            pendingReply?.notSaved = reason
            apply(.stateNotSaved(reason: "cannot save the daemon's state (\(reason)): codes are paused (fail closed) until "
                + "it can be saved and an operator resumes them"), &step)
        case .socketGone:
            // Closed now, rebound at the next tick: rebinding at once could race `rm -rf` of
            // the output directory (a new socket in it makes its rmdir fail).
            if !isStopping && socket.gone(at: step.now) {
                step.effects.append(.closeSocket)
            }
        case .socketRebound:
            socket.rebound(at: step.now)
            step.log(.notice, "recreated the control socket \(setup.socketPath)")
        case .socketRebindFailed(let reason):
            let pause = (socket.nextAttempt?.milliseconds ?? step.now.milliseconds) - step.now.milliseconds
            step.log(.warning, "cannot recreate the control socket: \(reason); trying again in \(max(1, (pause + 999) / 1000))s")
        }
        finish(&step)
        return step.effects
    }

    /// Asks for the socket to be bound again when it is down and an attempt is due.
    private mutating func rebindIfDue(_ step: inout Step) {
        guard socket.isDue(at: step.now) else { return }
        socket.attempted(at: step.now)
        step.effects.append(.rebindSocket)
    }

    // MARK: - Events

    /// One event's work in progress.
    private struct Step {
        let now: WallTime
        let before: CheckInState
        var effects: [DaemonEffect] = []
        var forceWrite = false

        mutating func log(_ level: LogLevel, _ line: String) { effects.append(.log(level, line)) }
    }

    private mutating func handle(_ signal: DaemonSignal, _ step: inout Step) {
        switch signal {
        case .terminate, .interrupt:
            guard lifecycle.stop() else { return }
            step.log(.notice, "received \(signal.rawValue); stopping")
            if host.notifies { step.effects.append(.notify("STOPPING=1")) }
            pendingReply = nil
            apply(.stopRequested, &step)
            step.forceWrite = true  // the stopped state goes out even while outputs fail
        case .hangup:
            if !isStopping { step.effects.append(.reloadConfiguration) }
        case .user1:
            if !coalescesShake(at: step.now) { apply(.shakeRequested, &step) }
        }
    }

    /// SIGHUP's second half: the new configuration, minus what needs a restart.
    private mutating func reload(_ reloaded: DaemonSetup, clock: ClockSync, _ step: inout Step) {
        var new = reloaded
        let running = Dictionary(setup.restartOnly.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for setting in reloaded.restartOnly where running[setting.name] != setting.value {
            step.log(.warning, "reload: \(setting.name) changes take effect at the next restart")
        }
        new.restartOnly = setup.restartOnly
        new.outputDirectory = setup.outputDirectory
        new.socketPath = setup.socketPath
        let codesChange = new.codes != setup.codes
        step.forceWrite = new.look != setup.look  // another scale, say: redraw the same code
        setup = new
        if codesChange {
            notice(model.replaceIssuer(issuers.issuer(for: new.codes), at: step.now), &step)
        }
        checkClock(clock, &step)  // require-clock-sync may have changed
        step.log(.notice, "reloaded configuration: venue \(setup.codes.venue), period \(setup.codes.period.seconds)s")
    }

    /// The write in flight is in place; a full set makes the daemon ready, or ends a stop.
    private mutating func written(_ step: inout Step) {
        guard writes.written(at: step.now) == .full else { return }
        if isStopping {
            step.log(.notice, "stopped")
            exit(.stopped, &step)
            return
        }
        if lifecycle.becameReady(), host.notifies { step.effects.append(.notify("READY=1")) }
        if model.outputsFailing { apply(.outputSucceeded, &step) }
    }

    /// The write in flight failed; a partial update changes nothing else (the next tick tries
    /// again), a full set degrades the outputs, or ends a stop.
    private mutating func failed(_ reason: String, _ step: inout Step) {
        guard writes.failed() == .full else { return }
        counters.writeFailures += 1
        pendingReply?.notWritten = reason
        if isStopping {
            step.log(.error, "stopped, but the stopped state could not be written: \(reason); "
                + "the last code stays on disk in \(setup.outputDirectory) until it expires")
            exit(.stopped, &step)
            return
        }
        apply(.outputFailed(reason: reason), &step)
    }

    private mutating func exit(_ status: DaemonExit, _ step: inout Step) {
        lifecycle.exit(status)
        timer.disarm()
        step.effects.append(.exit(status))
    }

    /// The clock's synchronisation as read (at start, at each tick and so at each rotation, and
    /// at a reload): the model decides on a warning, or no code while it must wait.
    private mutating func checkClock(_ clock: ClockSync, _ step: inout Step) {
        apply(.clockChecked(clock, required: setup.requireClockSync), &step)
    }

    /// Whether a shake at `now` is coalesced into the last one: only one that would be
    /// honoured (shake mode on, codes shown) counts; a refused one is refused as before.
    private mutating func coalescesShake(at now: WallTime) -> Bool {
        guard model.state.settings.shake == .on, model.state.code != nil else { return false }
        guard shakeLimit.coalesces(at: now) else { return false }
        counters.coalescedShakes += 1
        return true
    }

    private mutating func apply(_ input: CheckInViewModelInput, by actor: ModeActor = .anonymous, _ step: inout Step) {
        notice(model.send(input, at: step.now, by: actor), &step)
    }

    private mutating func notice(_ notices: [CheckInNotice], _ step: inout Step) {
        for notice in notices {
            switch notice {
            case .shakeIgnored:
                counters.ignoredShakes += 1
                step.log(.notice, "shake ignored: shake mode is off")
            case .settingsChanged:
                break  // saved with the issue record before anything is written (`saveIfNeeded`)
            case .issued(let code, let cause):
                if cause == .shake || cause == .refreshNow { pendingReply?.issued = true }
                counters.rotations[cause, default: 0] += 1
                counters.lastRotation = step.now
                // Regular rotations are the daemon's heartbeat, not news; the others are.
                let coalesced = cause == .shake ? shakeLimit.honoured(at: step.now) : 0
                if cause != .window {
                    let also = coalesced == 0 ? "" : "; \(coalesced) more shake\(coalesced == 1 ? "" : "s") within a second of the last were coalesced"
                    step.log(.info, "issued a fresh code (\(cause.rawValue), seq \(code.sequence)\(also))")
                }
            }
        }
    }

    // MARK: - Effects of the new state

    private mutating func finish(_ step: inout Step) {
        guard !lifecycle.hasExited else { return }
        for (level, line) in StateChangeLog.lines(from: step.before, to: model.state, stateUnsaved: model.stateFailing) {
            step.log(level, line)
        }
        if writes.isIdle { saveIfNeeded(&step) }
        if writes.isIdle { writeIfNeeded(&step) }
        // A save or a write ends the batch: what follows (the write, reply, status, timer)
        // depends on its result and is decided when the shell reports it, never ahead of it.
        guard writes.isIdle else { return }
        if let pending = pendingReply {
            pendingReply = nil
            let shown = state
            step.effects.append(.reply(pending.text(model: model, onDisk: writes.onDisk, document: document(for: shown))))
        }
        notifySystemd(&step)
        armTimer(&step)
    }

    /// Saves the settings and the issue record when either changed: before any write, so no
    /// code reaches the outputs before its `(window, seq)` is on disk.
    private mutating func saveIfNeeded(_ step: inout Step) {
        let wanted = SavedState(settings: model.state.settings, issued: model.record)
        if let save = writes.save(wanted, stopping: isStopping, forceWriteAfter: step.forceWrite) {
            step.effects.append(.saveSettings(save))
        }
    }

    /// Writes what the model's state needs written now, if anything (`OutputWriteScheduler`).
    private mutating func writeIfNeeded(_ step: inout Step) {
        guard let write = writes.write(model, counters: counters, periodSeconds: setup.codes.period.seconds, forced: step.forceWrite,
                                       stopping: isStopping, at: step.now) else { return }
        step.effects.append(.writeOutputs(frame(write.state, files: write.files)))
    }

    private mutating func frame(_ state: CheckInState, files: [OutputFile]) -> OutputFrame {
        OutputFrame(state: state, files: files, look: setup.look, document: document(for: state), counters: counters,
                    venue: setup.codes.venue.rawValue, period: setup.codes.period.seconds, version: host.version)
    }

    private mutating func document(for state: CheckInState) -> String {
        documents.text(for: state, venue: setup.codes.venue, period: setup.codes.period, pid: host.pid)
    }

    /// One datagram per event at most: the status when it changed (a new code, pause, health)
    /// and, after a tick, the watchdog ping.
    private mutating func notifySystemd(_ step: inout Step) {
        guard host.notifies, !isStopping else { return }  // STOPPING=1 said it all
        var lines: [String] = []
        let status = "STATUS=" + StatusLine.text(for: state, venue: setup.codes.venue.rawValue)
        if status != lastStatus {
            lines.append(status)
            lastStatus = status
        }
        if timer.takePing(at: step.now, watchdog: host.watchdogMilliseconds != nil) { lines.append("WATCHDOG=1") }
        if !lines.isEmpty { step.effects.append(.notify(lines.joined(separator: "\n"))) }
    }

    /// Arms the timer for the earliest wake (`TimerPlan`), unless it is armed for it already.
    private mutating func armTimer(_ step: inout Step) {
        guard !isStopping else { return }
        let wakes = TimerPlan.Wakes(
            boundary: model.nextBoundary(after: step.now),
            watchdogMilliseconds: host.notifies ? host.watchdogMilliseconds : nil,
            retrying: model.outputsFailing || model.stateFailing || model.state.phase == .waitingForClock,
            socketRebind: socket.isDown ? socket.nextAttempt : nil,
            rewrite: writes.nextRewrite(at: step.now),
            metricsWrite: writes.nextMetricsWrite(counters: counters, health: model.state.health, stopping: isStopping))
        if let at = timer.arm(wakes, at: step.now) { step.effects.append(.armTimer(at: at)) }
    }
}
