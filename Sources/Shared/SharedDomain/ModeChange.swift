/// Where the kiosk's current modes were last set: on the kiosk itself (`qrcheckin ctl`), from
/// the operator console (a steer the reporter applied), or by the daemon (it pauses itself when
/// its state cannot be saved: fail closed). The latest change wins, whichever side made it.
public enum ModeSource: String, CaseIterable, Sendable {
    case local, console, daemon
}

/// Who set a mode last, from where and when: kept by the daemon with its settings, shown by
/// `status` ("paused from the console by mina at 14:02") and sent in every report.
public struct ModeChange: Equatable, Sendable {
    /// Where it was set.
    public var source: ModeSource
    /// Who set it, as the client said (the console's operator, `ctl`'s user); nil when unknown
    /// (the daemon itself, or a client that named nobody).
    public var by: OperatorName?
    /// Unix seconds.
    public var at: Int64

    /// Records a change.
    public init(source: ModeSource, by: OperatorName?, at: Int64) {
        self.source = source
        self.by = by
        self.at = at
    }
}

/// Who asked for a change on the control socket (`refresh pause by console:mina`): the place
/// and the name a client gives. Only operators may use the socket at all; the name is theirs
/// to give, as a commit's author is.
public struct ModeActor: Equatable, Sendable, CustomStringConvertible {
    /// Where the request comes from (`local` for `ctl`, `console` for the reporter's steers).
    public var source: ModeSource
    /// The operator's name, if given.
    public var name: OperatorName?

    /// An actor.
    public init(source: ModeSource, name: OperatorName?) {
        self.source = source
        self.name = name
    }

    /// A request that names nobody: a local operator.
    public static let anonymous = ModeActor(source: .local, name: nil)

    /// Parses `local`, `local:NAME`, `console` or `console:NAME` (the word after `by`).
    public init?(word: Substring) {
        let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let source = ModeSource(rawValue: String(parts[0])), source != .daemon else { return nil }
        self.source = source
        if parts.count == 2 {
            guard let name = OperatorName(String(parts[1])) else { return nil }
            self.name = name
        } else {
            name = nil
        }
    }

    /// `console:mina`, `local`: the word a request line carries after `by`.
    public var description: String { source.rawValue + (name.map { ":" + $0.rawValue } ?? "") }
}

/// An operator's name as the console and the control protocol carry it: 1–64 ASCII letters,
/// digits, `.`, `_`, `-`, `@` (the console's account names), so it needs no escaping in a log
/// line, a page, a request line or a shell.
public struct OperatorName: Hashable, Sendable, CustomStringConvertible {
    /// The longest name, in bytes.
    public static let maximumLength = 64

    /// The name.
    public let rawValue: String

    /// The name, or nil when `text` is not one.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength, text.utf8.allSatisfy(Self.isAllowed) else { return nil }
        rawValue = text
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    public var description: String { rawValue }
}
