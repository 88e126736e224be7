import KioskCore
import SharedDomain
import SharedQR

/// The kiosk's state machine: events in (`KioskInput`), one `KioskScreen` out.
///
/// Pure apart from its one port, the QR encoder. Time and the daemon's liveness only arrive
/// with `.clockTicked`, as the loop read them, so tests drive it on a test clock.
public struct KioskViewModel: Sendable {
    /// How the screen is drawn.
    public let options: KioskOptions
    /// The terminal size.
    public private(set) var size: TerminalSize
    /// The wall-clock time of the last tick.
    public private(set) var now: WallTime
    /// What was last learned about `current.json`.
    public private(set) var source: Source = .missing

    private let encoder: any QREncoding
    /// Whether the daemon `current.json` names was alive at the last tick (nil: not known yet,
    /// and the document is believed).
    private var daemonAlive: Bool?
    /// The QR of the current URL, encoded once per code rather than once per second.
    private var symbol: (url: String, matrix: QRMatrix)?

    /// What the kiosk knows about `current.json`.
    public enum Source: Equatable, Sendable {
        case missing
        case unreadable(String)
        case document(StateDocument)
    }

    /// Creates a view model for a terminal of `size` at time `now`.
    public init(options: KioskOptions, size: TerminalSize, now: WallTime, encoder: any QREncoding) {
        self.options = options
        self.size = size
        self.now = now
        self.encoder = encoder
    }

    /// The pid in the document read last, whose liveness each tick carries.
    public var documentPID: Int64? {
        if case .document(let document) = source { document.pid } else { nil }
    }

    /// Applies one event.
    public mutating func handle(_ input: KioskInput) {
        switch input {
        case .documentRead(let document):
            if documentPID != document.pid { daemonAlive = nil }  // another daemon: not probed yet
            source = .document(document)
            if let url = document.url, document.phase == .running, symbol?.url != url {
                do {
                    symbol = (url, try encoder.encode(url, level: .medium))
                } catch {
                    source = .unreadable("cannot encode the URL in current.json: \(error.description)")
                    symbol = nil
                }
            }
        case .documentMissing:
            source = .missing
        case .documentUnreadable(let reason):
            source = .unreadable(reason)
        case .clockTicked(let time, let alive):
            now = time
            daemonAlive = alive
        case .resized(let newSize):
            size = newSize
        }
    }

    /// What is shown now.
    public var status: KioskStatus {
        guard case .document(let document) = source else {
            if case .unreadable(let reason) = source { return .unreadable(reason) }
            return .notRunning(stoppedAt: nil)
        }
        switch document.phase {
        case .stopped:
            return .notRunning(stoppedAt: document.updatedAt)
        case .paused:
            guard daemonAlive != false else { return .stale(.daemonGone(pid: document.pid)) }
            return .paused(shake: document.shake)
        case .waiting:
            guard daemonAlive != false else { return .stale(.daemonGone(pid: document.pid)) }
            return .waitingForClock
        case .running:
            guard daemonAlive != false else { return .stale(.daemonGone(pid: document.pid)) }
            if document.isExpired(at: now) {
                return .stale(.expired(updatedAt: document.updatedAt))
            }
            // The parser guarantees a running document has a url and a safe number.
            return .showing(KioskCode(
                url: document.url ?? "", safeNumber: document.safeNumber ?? "",
                secondsLeft: document.secondsLeft(at: now), shake: document.shake,
                warning: document.health != "ok" ? document.reason ?? document.health
                    : document.clockUnsynchronized
                    ? Vocabulary(options.language).clockUnsynchronized(maxErrorSeconds: document.clock?.maxErrorSeconds) : nil))
        }
    }

    /// The screen for the current state and size.
    public var screen: KioskScreen {
        let layout = KioskLayout(options: options, size: size)
        let status = status
        if case .showing(let code) = status, let symbol, symbol.url == code.url {
            return layout.screen(code: code, matrix: symbol.matrix)
        }
        return layout.screen(message: status)
    }
}
