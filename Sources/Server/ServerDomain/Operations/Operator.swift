/// Who does an operator action, as its audit entry names them: a console account from an
/// address, the user at a shell, or the server itself.
public struct Operator: Hashable, Sendable {
    /// The actor: a console account (`alice`), a shell's user (`root`, `uid 1000`), `server`.
    public let name: String
    /// From where: `console 203.0.113.5`, `cli`, `retention`.
    public let source: String

    /// An operator of this name, from `source`.
    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }

    /// The user at a shell running a command (`OperatorIdentity` tells the name).
    public static func shell(_ name: String) -> Operator {
        Operator(name: name, source: "cli")
    }

    /// The server's own schedule (the daily retention).
    public static let server = Operator(name: "server", source: "retention")
}
