import ServerDomain

/// Who may open which page: the one table of route → minimum role, checked by `ConsoleSite`
/// before any page's handler runs (and walked by the tests for every role). A page that is
/// not in it needs no session (the sign-in form and its second step); every other page needs one.
public enum ConsoleAccess {
    /// The least role that may open each page that needs a session.
    public static let minimumRole: [ConsolePage: ConsoleRole] = [
        .logout: .steward,
        .dashboard: .steward,
        .inside: .steward,
        .checkin: .steward,
        // Stewards see the kiosks; the page's POST asks more of each action: a supervisor to
        // steer, an admin to forget (`KiosksHandler.actions`).
        .kiosks: .steward,
        .checkout: .steward,
        .account: .steward,
        .log: .supervisor,
        .export: .supervisor,
        .erase: .supervisor,
        .users: .admin,
        .tokens: .admin,
        .audit: .admin,
        .webhooks: .admin,
    ]

    /// What a request for `page` by `role` (nil: no session) gets before its handler.
    public static func decide(_ page: ConsolePage, role: ConsoleRole?) -> Decision {
        guard let needed = minimumRole[page] else { return .allowed }
        guard let role else { return .signInFirst }
        return role >= needed ? .allowed : .forbidden
    }

    /// The table's answer.
    public enum Decision: Hashable, Sendable {
        /// The handler runs.
        case allowed
        /// No session: 303 to the sign-in form.
        case signInFirst
        /// A session whose role is too low: 403.
        case forbidden
    }

    /// The pages `role` may open, for its navigation.
    static func pages(for role: ConsoleRole) -> [ConsolePage] {
        [.dashboard, .inside, .checkin, .checkout, .kiosks, .log, .export, .erase, .users, .tokens, .audit, .webhooks].filter { decide($0, role: role) == .allowed }
    }
}
