/// What a code typed at sign-in is, for one account at one moment.
public enum TOTPVerification: Equatable, Sendable {
    /// Right, and newer than the last code the account signed in with: sign in, and store
    /// `step` as the account's last (only if it is still newer then: two servers may race).
    case accepted(TOTPStep)
    /// Right, but of a step no newer than the account's last accepted one: a code seen once
    /// (over a shoulder, in a proxy's log) is refused the second time.
    case replayed(TOTPStep)
    /// Six digits that are no code of the account's within one step of now.
    case wrong
    /// Not six digits (after spaces are removed): a typo, never a guess worth counting apart.
    case malformed

    /// The replay rule, on its own: a code that matched `step` is accepted only when it is
    /// newer than `lastAccepted` (nil: the account never signed in with a code).
    public static func judging(matched step: TOTPStep, lastAccepted: TOTPStep?) -> TOTPVerification {
        if let lastAccepted, step <= lastAccepted { return .replayed(step) }
        return .accepted(step)
    }

    /// Whether the code signs in.
    public var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}
