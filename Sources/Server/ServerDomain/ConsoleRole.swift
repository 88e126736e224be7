/// What a console account may do. Each role has everything of the one before it: a steward
/// works the door (dashboard, who is inside, staff check-ins), a supervisor also reads and
/// exports the visitor log and erases from it, an admin also manages accounts and reads the
/// audit log. The raw values are the words `user add --role` takes and the ledger stores.
public enum ConsoleRole: String, CaseIterable, Comparable, Hashable, Sendable {
    case steward
    case supervisor
    case admin

    /// The rank: a role may do what every lower rank may.
    private var rank: Int {
        switch self {
        case .steward: 0
        case .supervisor: 1
        case .admin: 2
        }
    }

    public static func < (lhs: ConsoleRole, rhs: ConsoleRole) -> Bool { lhs.rank < rhs.rank }
}
