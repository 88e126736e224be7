/// Whether the daemon's outputs are current.
public enum Health: Equatable, Sendable {
    /// Outputs are written and current.
    case ok
    /// The daemon runs but something is wrong (outputs unwritable, clock moved back); the reason says what.
    case degraded(reason: String)

    /// `ok` or `degraded`, as written in `current.json`.
    public var name: String {
        switch self {
        case .ok: "ok"
        case .degraded: "degraded"
        }
    }

    /// The reason when degraded.
    public var reason: String? {
        if case .degraded(let reason) = self { reason } else { nil }
    }
}
