import SharedDomain

/// A request on the control socket: one line of words, as `qrcheckin ctl` sends them.
public enum ControlRequest: Equatable, Sendable {
    /// `get`: the current state.
    case get
    /// `shake`: a shake event (honoured when shake mode is on).
    case shake
    /// `shake on|off|toggle`.
    case setShake(ShakeMode)
    case toggleShake
    /// `refresh auto|pause`.
    case setRefresh(RefreshMode)
    /// `refresh now`.
    case refreshNow

    /// What the daemon accepts, for error replies and `ctl --help`.
    /// (Each may end with `by ACTOR`: `parse(_:)`.)
    public static let grammar = "get | shake | shake on|off|toggle | refresh auto|pause|now"

    /// Parses one request line (words separated by spaces, case-sensitive), and who asked: a
    /// request may end with `by local:alice` (`ctl`) or `by console:mina` (a console steer the
    /// reporter applies). The daemon records who set a mode last (`ModeChange`).
    /// `text` is the request without its actor, as the log quotes it.
    public static func parse(_ line: String) throws(ControlRequestError) -> (request: ControlRequest, actor: ModeActor, text: String) {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        var actor = ModeActor.anonymous
        var text = line
        if words.count >= 3, words[words.count - 2] == "by" {
            guard let named = ModeActor(word: words[words.count - 1]) else {
                throw ControlRequestError(message: "unknown actor \(Quoted(words[words.count - 1])) (expected local, local:NAME or console:NAME; "
                    + "NAME: 1-64 of A-Z a-z 0-9 . _ - @)")
            }
            actor = named
            words.removeLast(2)
            text = words.joined(separator: " ")
        }
        return (try ControlRequest(words: words.map(String.init), line: line), actor, text)
    }

    /// Parses one request line without an actor (see `parse(_:)` for one with it).
    public init(line: String) throws(ControlRequestError) {
        self = try Self.parse(line).request
    }

    private init(words: [String], line: String) throws(ControlRequestError) {
        switch words {
        case ["get"]: self = .get
        case ["shake"]: self = .shake
        case ["shake", "on"]: self = .setShake(.on)
        case ["shake", "off"]: self = .setShake(.off)
        case ["shake", "toggle"]: self = .toggleShake
        case ["refresh", "auto"]: self = .setRefresh(.auto)
        case ["refresh", "pause"], ["refresh", "paused"]: self = .setRefresh(.paused)
        case ["refresh", "now"]: self = .refreshNow
        default:
            throw ControlRequestError(message: "unknown request \(Quoted(line)) (expected: \(Self.grammar))")
        }
    }

    /// The view-model input this request sends, if it changes anything.
    public var input: CheckInViewModelInput? {
        switch self {
        case .get: nil
        case .shake: .shakeRequested
        case .setShake(let mode): .shakeModeSet(mode)
        case .toggleShake: .shakeModeToggled
        case .setRefresh(let mode): .refreshModeSet(mode)
        case .refreshNow: .refreshRequested
        }
    }
}

/// A control request that could not be understood.
public struct ControlRequestError: Error, Equatable, Sendable {
    /// One line for the reply.
    public let message: String
}
