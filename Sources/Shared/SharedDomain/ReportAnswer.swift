/// The check-in server's signed answer to a report (docs/TOKEN.md, "Kiosk reports"): its clock,
/// and the console's steer for this kiosk, if one is waiting.
public struct ReportAnswer: Equatable, Sendable {
    /// The most bytes an answer's body may have; a kiosk refuses more.
    public static let maximumBodyBytes = 4096

    /// The server's clock when it answered, Unix milliseconds.
    public var serverTime: Int64
    /// What the console asks of this kiosk, if anything.
    public var steer: KioskSteer?

    /// An answer.
    public init(serverTime: Int64, steer: KioskSteer? = nil) {
        self.serverTime = serverTime
        self.steer = steer
    }
}

/// An operator's change for one kiosk, set in the console (or `qrcheckin-server kiosks set`) and
/// carried by an answer: modes to set and a fresh code to issue. The kiosk applies it through
/// its daemon's control socket, as `qrcheckin ctl` would, naming the operator, and says so in
/// its next report (`applied`). Applying one twice changes nothing more (the reporter remembers
/// the last id it applied).
public struct KioskSteer: Equatable, Sendable {
    /// The server's id for it; the kiosk reports it back once applied.
    public var id: Int64
    /// Refresh mode to set, if any.
    public var refresh: RefreshMode?
    /// Shake mode to set, if any.
    public var shake: ShakeMode?
    /// Whether to issue a fresh code (after the modes: a resumed kiosk can then issue it).
    public var newCode: Bool
    /// The operator who asked.
    public var by: OperatorName
    /// Unix seconds they asked.
    public var at: Int64

    /// A steer; it must ask for something (`isEmpty` is refused by the JSON reader).
    public init(id: Int64, refresh: RefreshMode? = nil, shake: ShakeMode? = nil, newCode: Bool = false, by: OperatorName, at: Int64) {
        self.id = id
        self.refresh = refresh
        self.shake = shake
        self.newCode = newCode
        self.by = by
        self.at = at
    }

    /// Whether it asks for nothing.
    public var isEmpty: Bool { refresh == nil && shake == nil && !newCode }

    /// The control requests that apply it, in order (shake, refresh, then a fresh code), each
    /// naming the operator: `shake off by console:mina`.
    public var controlLines: [String] {
        let actor = ModeActor(source: .console, name: by)
        var lines: [String] = []
        if let shake { lines.append("shake \(shake.rawValue) by \(actor)") }
        if let refresh { lines.append("refresh \(refresh == .paused ? "pause" : "auto") by \(actor)") }
        if newCode { lines.append("refresh now by \(actor)") }
        return lines
    }
}
