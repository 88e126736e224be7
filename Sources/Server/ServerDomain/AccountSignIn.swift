/// How a console account signs in. The raw values are what the ledger stores and `user list`
/// shows.
public enum AccountSignIn: String, CaseIterable, Hashable, Sendable {
    /// With its password (and its second factor, when it has one).
    case password
    /// Through the venue's proxy (`admin-auth = proxy`): the proxy's header names it, its
    /// groups give its role. It has no password, and none can be set: the organisation's
    /// sign-in is the only way in.
    case proxy
}
