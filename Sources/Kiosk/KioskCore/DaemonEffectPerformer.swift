import SharedDomain

/// Performs `DaemonCore`'s effects through `DaemonPorts` and hands each result back to the
/// core as the event it is, until the core asks for nothing more: the one copy of this code,
/// shared by the daemon (`Daemon`) and the core's tests (`TestShell`), so the tests run the
/// daemon's own effect code against in-memory ports. It decides nothing.
public struct DaemonEffectPerformer {
    /// The ports the effects go through.
    public let ports: any DaemonPorts

    /// A performer through `ports`.
    public init(ports: any DaemonPorts) {
        self.ports = ports
    }

    /// What one event led to: every effect performed, in order (results' effects included),
    /// and the control reply, if the core gave one.
    public struct Outcome: Sendable {
        /// The effects, in the order they were performed.
        public var effects: [DaemonEffect] = []
        /// The reply to the request being handled, if any.
        public var reply: String?
    }

    /// The core's `handle(_:at:)`. A function, not an `inout` core: a port may report
    /// something of its own (the socket's refusals, counted as it closes) while an effect is
    /// performed, and each call holds the core only while it decides.
    public typealias Core = (DaemonEvent, WallTime) -> [DaemonEffect]

    /// Hands `event` to `core` at the ports' time now and performs what follows.
    @discardableResult
    public func send(_ event: DaemonEvent, to core: Core) -> Outcome {
        var outcome = Outcome()
        perform(core(event, ports.now()), on: core, into: &outcome)
        return outcome
    }

    private func perform(_ effects: [DaemonEffect], on core: Core, into outcome: inout Outcome) {
        for effect in effects {
            outcome.effects.append(effect)
            let result: DaemonEvent?
            switch effect {
            case .writeOutputs(let frame):
                result = write(frame, on: core, into: &outcome)
            case .reply(let text):
                outcome.reply = text
                result = nil
            case .notify(let message):
                ports.notify(message)
                result = nil
            case .log(let level, let line):
                ports.log(level, line)
                result = nil
            case .armTimer(let time):
                result = ports.armTimer(at: time).map { .timerFailed(reason: $0) }
            case .closeSocket:
                ports.closeSocket()
                result = nil
            case .rebindSocket:
                result = ports.rebindSocket().map { .socketRebindFailed(reason: $0) } ?? .socketRebound
            case .saveSettings(let state):
                do {
                    try ports.store.save(state)
                    result = .settingsSaved
                } catch {
                    result = .settingsNotSaved(reason: error.message)
                }
            case .reloadConfiguration:
                result = ports.reload()
            case .exit(let status):
                ports.closeSocket()
                ports.exit(status)
                result = nil
            }
            if let result { perform(core(result, ports.now()), on: core, into: &outcome) }
        }
    }

    /// Renders and writes a frame; the textfile collector's copy of `metrics.prom` goes out
    /// first, whatever happens to the output directory: it is how monitoring learns that the
    /// output directory is full.
    private func write(_ frame: OutputFrame, on core: Core, into outcome: inout Outcome) -> DaemonEvent {
        let files: [OutputContent]
        do {
            files = try ports.renderer(for: frame.look).files(for: frame)
        } catch {
            return .outputsFailed(reason: error.message)
        }
        if let directory = ports.metricsDirectory, let metrics = files.first(where: { $0.name == OutputFile.metrics.name }) {
            var failure: String?
            do {
                try ports.copyMetrics(metrics.bytes, venue: frame.venue)
            } catch {
                failure = error.message
            }
            perform(core(.metricsCopied(directory: directory, failure: failure), ports.now()), on: core, into: &outcome)
        }
        do {
            try ports.outputs.replaceTogether(files)
            return .outputsWritten
        } catch {
            return .outputsFailed(reason: error.message)
        }
    }
}
