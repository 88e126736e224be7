import KioskAdapters
import KioskCore
import KioskViews
import SharedCLI
import SharedDomain
import SharedQREncoder
import SharedSystem

/// The kiosk's event loop: one thread, one poll(2) over keys, inotify and signals, woken at
/// each whole second for the countdown. It wires the Data adapters to the view model and
/// writes only the rows that changed.
struct KioskSession {
    let options: KioskOptions

    private var documentPath: String { options.outputDirectory + "/current.json" }

    private static func openSignals() throws(CommandError) -> SignalSource {
        do {
            return try SignalSource([SignalSource.interrupt, SignalSource.terminate, SignalSource.hangup, SignalSource.windowChanged])
        } catch {
            throw CommandError(.ioError, error.description)
        }
    }

    func run() throws(CommandError) -> ExitCode {
        // Signals first: blocked before anything else, so none is lost or kills us half-drawn.
        let signals = try Self.openSignals()
        // libqrencode before the terminal is taken: a broken one is a plain error, not an exit
        // from the first frame with the screen left raw (LoadedLibrary).
        try LoadedLibrary.require([.qrencode])
        let watch: Inotify
        let terminal: TerminalDevice
        do {
            watch = try Inotify(directory: options.outputDirectory)
        } catch {
            throw CommandError(.ioError, error.description)
        }
        do {
            terminal = try TerminalDevice()
        } catch {
            throw CommandError(.usage, "show needs a terminal: \(error.description)")
        }
        defer { terminal.restore() }

        var model = KioskViewModel(options: options, size: Self.size(of: terminal), now: Self.now(),
                                   encoder: QRCodeEncoder())
        let liveness = SignalProcessLiveness()
        watch.watch()
        model.handle(readDocument())
        var shown: KioskScreen?
        func draw() {
            model.handle(.clockTicked(Self.now(), daemonAlive: model.documentPID.map(liveness.isAlive(pid:))))
            let screen = model.screen
            terminal.write(KioskScreenDiff.update(from: shown, to: screen))
            shown = screen
        }
        draw()

        while true {
            // Wake just after the next whole second: that is when the countdown changes.
            let timeout = Int32(1000 - Self.now().milliseconds % 1000 + 1)
            let ready: Set<Int32>
            do {
                ready = try Poller.wait(readable: [terminal.input, signals.descriptor.rawValue, watch.descriptor],
                                        timeoutMilliseconds: timeout)
            } catch {
                throw CommandError(.ioError, error.description)
            }
            if ready.contains(terminal.input) {
                guard let keys = terminal.readKeys() else { return .success }  // the terminal hung up
                if keys.contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") || $0 == 0x03 }) {
                    return .success
                }
                if keys.contains(0x0C) { shown = nil }  // Ctrl-L: draw everything again
            }
            if ready.contains(signals.descriptor.rawValue) {
                for signal in signals.drain() {
                    if signal == SignalSource.windowChanged {
                        model.handle(.resized(Self.size(of: terminal)))
                    } else {
                        return .success
                    }
                }
            }
            var reload = false
            if ready.contains(watch.descriptor) {
                let events = watch.read()
                reload = events.lostDirectory || events.names.contains("current.json")
            }
            // No directory yet, or it went away, or another is at the path (the old one removed
            // while someone held it open, unheard of): look for it again on this (slow) timer.
            if watch.rewatch() { reload = true }
            if reload || !watch.isWatching { model.handle(readDocument()) }
            draw()
        }
    }

    /// Reads and parses `current.json`, from a directory that passes the trust check each time
    /// (docs/STATE.md, Directory trust): a kiosk must not show a code someone else planted.
    private func readDocument() -> KioskInput {
        let held: TrustedDirectory?
        do {
            held = try DaemonDirectory.lookUp(options.outputDirectory)
        } catch {
            return .documentUnreadable(DaemonDirectory.refusal(error))
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            if let held {
                bytes = try held.read("current.json", limit: 64 * 1024)
            } else {
                bytes = try TextFile.read(documentPath, limit: 64 * 1024)  // fails with its own reason
            }
        } catch {
            if error.isMissingPath { return .documentMissing }
            return .documentUnreadable(error.description)
        }
        do {
            return .documentRead(try StateDocument(parsing: bytes))
        } catch {
            return .documentUnreadable("\(documentPath): \(error.message)")
        }
    }

    private static func size(of terminal: TerminalDevice) -> TerminalSize {
        // A terminal that does not report its size (a serial line) is taken as the classic 80x24.
        let size = terminal.size() ?? (80, 24)
        return TerminalSize(columns: size.columns, rows: size.rows)
    }

    private static func now() -> WallTime {
        SystemClock().now()
    }
}
