import SharedDomain

/// What the daemon saves and writes next, one at a time, and what the files on disk show.
///
/// The rules (docs/STATE.md): the settings and the issue record are saved before any write,
/// so no code reaches the outputs before its `(window, seq)` is on disk; every file of a state
/// is put in place together or none is; when they cannot be, `current.json` alone is rewritten
/// to say `degraded` about the code still on disk; counter-only changes rewrite `metrics.prom`
/// alone, at most once a second; removed files are written again, the same state as before,
/// half a second after the last removal heard. One save or write is in flight at a time: what
/// follows depends on its result, so nothing more is decided until the shell reports it.
public struct OutputWriteScheduler: Sendable {
    /// How long after the last removal heard removed outputs are written again: long enough
    /// for `rm -rf` to be done with a directory of a few files (a file written into it sooner
    /// would make its rmdir fail), short enough to keep the promise of a second.
    public static let removalSettleMilliseconds: Int64 = 500

    /// What a write puts in place.
    public enum Kind: Equatable, Sendable {
        /// Every output file, showing a new state (or the same one again, forced).
        case full
        /// `current.json` alone, telling of a failure about the code still on disk.
        case healthOnly
        /// `metrics.prom` alone: counters or health changed, nothing else.
        case metricsOnly
    }

    /// A write the scheduler started: the shell renders `state` into `files`.
    public struct Write: Equatable, Sendable {
        /// What the write puts in place.
        public let kind: Kind
        /// The state the files will show (its health is what they will say).
        public let state: CheckInState
        /// The files to write, in order.
        public let files: [OutputFile]
    }

    /// The state the files on disk show, as written (nil: unknown, or removed by someone).
    public private(set) var onDisk: CheckInState?
    /// The settings and issue record as the state file holds them (nil: nothing saved yet).
    public private(set) var persisted: SavedState?
    /// The one save or write in flight.
    private var inFlight = InFlight.idle
    /// What failed and is not tried again before the next tick (trying at once would loop on
    /// the failure just reported); an operator's request also retries the save.
    private var held: Held = []
    /// The counters and health `metrics.prom` shows, as written (nil: not written yet).
    private var metricsOnDisk: MetricsShown?
    /// When `metrics.prom` was last written: counter-only changes rewrite it at most once a
    /// second, so a flood of refused peers cannot become a flood of writes.
    private var lastMetricsWrite: WallTime?
    /// When output files were last heard removed, while they wait to be written again.
    private var removedAt: WallTime?

    private enum InFlight {
        /// Nothing awaited.
        case idle
        /// A save, awaiting its result; `forceWriteAfter` when the event that asked for it also
        /// forced a write (a retry of failing outputs, the stopped state): the write after the
        /// save is forced too.
        case saving(SavedState, forceWriteAfter: Bool)
        /// A write, awaiting its result: the state the files will show (nil: `metrics.prom`
        /// alone) and what `metrics.prom` will show (nil: not written).
        case writing(Kind, onDisk: CheckInState?, metrics: MetricsShown?)
    }

    private struct Held: OptionSet {
        let rawValue: Int
        /// A save of the settings and issue record failed.
        static let save = Held(rawValue: 1)
        /// A health-only update of `current.json` failed.
        static let healthUpdate = Held(rawValue: 2)
        /// A metrics-only update failed.
        static let metricsUpdate = Held(rawValue: 4)
    }

    /// What `metrics.prom` shows beyond the state on disk: the counters and the live health.
    private struct MetricsShown: Equatable {
        var counters: DaemonCounters
        var health: Health
    }

    /// Nothing on disk known yet; `persisted` is what the state file holds.
    public init(persisted: SavedState?) {
        self.persisted = persisted
    }

    /// Whether no save or write is in flight (the next can be decided).
    public var isIdle: Bool {
        if case .idle = inFlight { true } else { false }
    }

    /// A tick: what failed is tried again.
    public mutating func retryHeld() {
        held = []
    }

    /// An operator's request: a failing save is tried again.
    public mutating func retrySave() {
        held.remove(.save)
    }

    /// The output directory itself was removed or replaced (or its owner or mode changed):
    /// nothing is known to be on disk, and every file is written again at once. Whoever removed
    /// it is done with it, so a write now races nobody; removed files waiting to settle
    /// (`outputsRemoved(at:)`) go now too.
    public mutating func outputsGone() {
        onDisk = nil
        removedAt = nil
    }

    /// Someone removed output files at `now`, the directory perhaps still to follow (a cleaner,
    /// or `rm -rf` on its way through it): nothing is known to be on disk, and every file is
    /// written again once no removal has been heard for `removalSettleMilliseconds`
    /// (`nextRewrite`). Not at once: a file written into a directory that `rm -rf` is still
    /// emptying makes its rmdir fail; and not only when the directory is heard gone: while
    /// anyone holds it open, the kernel does not say so.
    public mutating func outputsRemoved(at now: WallTime) {
        onDisk = nil
        removedAt = now
    }

    /// An operator asked for a change (`refresh now`, a mode): it is written at once, even while
    /// removed files settle. The pause only guesses that `rm -rf` may still be at work; an
    /// operator waiting on the socket wants to see the change, and its reply to say whether the
    /// files show it (written, or not and why), not that a write was put off.
    public mutating func operatorAsked() {
        removedAt = nil
    }

    /// When removed outputs are written again (nil: none wait). A wall clock set back does not
    /// hold them off: they are due then.
    public func nextRewrite(at now: WallTime) -> WallTime? {
        guard let removedAt, !removalSettled(at: now) else { return nil }
        return WallTime(milliseconds: removedAt.milliseconds + Self.removalSettleMilliseconds)
    }

    /// Whether removed outputs, if any, may be written at `now`.
    private func removalSettled(at now: WallTime) -> Bool {
        guard let removedAt else { return true }
        let waited = now.milliseconds - removedAt.milliseconds
        return waited >= Self.removalSettleMilliseconds || waited < 0
    }

    // MARK: - Saves

    /// Starts a save of `wanted` when it differs from what the state file holds (and a failed
    /// save is not held back, and the daemon is not stopping); returns what to save.
    public mutating func save(_ wanted: SavedState, stopping: Bool, forceWriteAfter: Bool) -> SavedState? {
        guard !stopping, !held.contains(.save), wanted != persisted else { return nil }
        inFlight = .saving(wanted, forceWriteAfter: forceWriteAfter)
        return wanted
    }

    /// The save in flight is on disk. Returns whether the write after it is forced (nil: no
    /// save was awaited).
    public mutating func saved() -> Bool? {
        guard case .saving(let saved, let forceWriteAfter) = inFlight else { return nil }
        inFlight = .idle
        persisted = saved
        return forceWriteAfter
    }

    /// The save in flight failed: held until the next tick or request. Returns whether the
    /// write after it is forced (nil: no save was awaited).
    public mutating func notSaved() -> Bool? {
        guard case .saving(_, let forceWriteAfter) = inFlight else { return nil }
        inFlight = .idle
        held.insert(.save)
        return forceWriteAfter
    }

    /// Whether `state`'s code (if any) is in the saved record, so it may be published.
    public func isRecorded(_ state: CheckInState, periodSeconds: Int) -> Bool {
        guard let code = state.code else { return true }
        return persisted?.issued.covers(code, periodSeconds: periodSeconds) ?? false
    }

    // MARK: - Writes

    /// Starts the write the model's state needs now, if any: every output when what they would
    /// show changed (or when `forced`); when they cannot be written, `current.json` alone about
    /// the failure; else `metrics.prom` alone when only `counters` or health changed and a
    /// second has passed. Never a code whose record is not saved (a failed save pauses codes,
    /// so this waits only for a save in flight), and nothing while a removal settles
    /// (`nextRewrite`), unless stopping: the stopped state goes out at once.
    public mutating func write(_ model: CheckInViewModel, counters: DaemonCounters, periodSeconds: Int, forced: Bool, stopping: Bool,
                               at now: WallTime) -> Write? {
        guard isRecorded(model.state, periodSeconds: periodSeconds) else { return nil }
        guard stopping || removalSettled(at: now) else { return nil }
        removedAt = nil
        var shown = model.state
        // Files that were written are current by definition: only the clock can make them
        // say degraded. The failure itself goes into a health update below.
        shown.health = model.healthOfWrittenOutputs
        // After a failure only a forced write (the next tick's retry) tries again: trying at
        // every event would loop on the failure it just reported.
        if forced || (!model.outputsFailing && onDisk?.withoutCountdown != shown.withoutCountdown) {
            return start(.full, shown, MetricsShown(counters: counters, health: shown.health), files: OutputFile.all)
        }
        if !stopping, !held.contains(.healthUpdate), model.outputsFailing, var update = onDisk, update.health != model.state.health {
            update.health = model.state.health
            update.updatedAt = now
            return start(.healthOnly, update, nil, files: [.json])
        }
        let live = MetricsShown(counters: counters, health: model.state.health)
        if let due = nextMetricsWrite(live, stopping: stopping), now >= due, var update = onDisk {
            // Counters or health alone changed (a refused peer, a request, an ignored shake, a
            // failed write): the metrics file alone, about the code the files beside it show,
            // with the daemon's live health (current.json's own update may not have fitted).
            update.health = model.state.health
            update.updatedAt = now
            return start(.metricsOnly, update, live, files: [.metrics])
        }
        return nil
    }

    /// When counters waiting for `metrics.prom` may be written: a second after its last write
    /// (nil: nothing waits, or writing it is not worth a try now).
    public func nextMetricsWrite(counters: DaemonCounters, health: Health, stopping: Bool) -> WallTime? {
        nextMetricsWrite(MetricsShown(counters: counters, health: health), stopping: stopping)
    }

    /// The write in flight put its files in place at `now`; returns what it wrote (nil: no
    /// write was awaited).
    public mutating func written(at now: WallTime) -> Kind? {
        guard case .writing(let kind, let shown, let metrics) = inFlight else { return nil }
        inFlight = .idle
        if let shown { onDisk = shown }
        if let metrics {
            metricsOnDisk = metrics
            lastMetricsWrite = now
        }
        return kind
    }

    /// The write in flight replaced nothing; returns what it was (nil: no write was awaited).
    /// A partial update is held until the next tick: it changes nothing else.
    public mutating func failed() -> Kind? {
        guard case .writing(let kind, _, _) = inFlight else { return nil }
        inFlight = .idle
        switch kind {
        case .full: break
        case .healthOnly: held.insert(.healthUpdate)
        case .metricsOnly: held.insert(.metricsUpdate)
        }
        return kind
    }

    private mutating func start(_ kind: Kind, _ state: CheckInState, _ metrics: MetricsShown?, files: [OutputFile]) -> Write {
        inFlight = .writing(kind, onDisk: kind == .metricsOnly ? nil : state, metrics: metrics)
        return Write(kind: kind, state: state, files: files)
    }

    /// A second after `metrics.prom`'s last write, when `live` differs from what it shows.
    /// Never while nothing is known to be on disk: `metrics.prom` alone tells of the code beside
    /// it, so none is written then (the full set that is due carries the counters), and a time
    /// that no write honours would wake the daemon over and over, at once each time.
    private func nextMetricsWrite(_ live: MetricsShown, stopping: Bool) -> WallTime? {
        guard !stopping, !held.contains(.metricsUpdate), onDisk != nil, let shown = metricsOnDisk, shown != live,
              let last = lastMetricsWrite else { return nil }
        return WallTime(milliseconds: last.milliseconds + 1000)
    }
}
