import SharedDomain

/// One account of the operator console: a name, a role and a password hash (Argon2id, as
/// `PasswordHash` makes it: salt and cost inside the string), or an account the venue's proxy
/// signs in (no password: `signIn == .proxy`), and its second factor if it has one. Kept in the
/// ledger's database, so every server on one PostgreSQL knows the same accounts.
public struct ConsoleAccount: Hashable, Sendable {
    /// The sign-in name: 1-64 letters, digits, `.`, `_`, `-`, `@` (`validName`).
    public let name: String
    public var role: ConsoleRole
    /// `$argon2id$…`: never the password; empty for an account the proxy signs in.
    public var passwordHash: String
    /// A disabled account cannot sign in, and its sessions end.
    public var disabled: Bool
    /// When the account was added.
    public let created: WallTime
    /// How it signs in: with its password, or through the venue's proxy (`admin-auth`).
    public let signIn: AccountSignIn
    /// Its second factor (TOTP), when it has one.
    public var secondFactor: SecondFactorState?

    /// An account with these fields.
    public init(name: String, role: ConsoleRole, passwordHash: String, disabled: Bool = false, created: WallTime,
                signIn: AccountSignIn = .password, secondFactor: SecondFactorState? = nil) {
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.disabled = disabled
        self.created = created
        self.signIn = signIn
        self.secondFactor = secondFactor
    }

    /// A new account the proxy signed in as `name` with `role` at `time`: no password (none
    /// can be set), no second factor (the organisation's sign-in has its own).
    public static func proxyManaged(_ name: String, role: ConsoleRole, at time: WallTime) -> ConsoleAccount {
        ConsoleAccount(name: name, role: role, passwordHash: "", created: time, signIn: .proxy)
    }

    /// Longest name, in bytes.
    public static let maximumNameLength = 64

    /// Whether `name` can name an account: plain ASCII that needs no escaping in a log line,
    /// a page or a shell (names appear in the audit log as the actor).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameLength
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "._-@".utf8.contains(byte)
            }
    }
}

/// What to change of an account; nil fields stay as they are.
public struct AccountChange: Hashable, Sendable {
    public var role: ConsoleRole?
    public var passwordHash: String?
    public var disabled: Bool?

    /// A change of these fields.
    public init(role: ConsoleRole? = nil, passwordHash: String? = nil, disabled: Bool? = nil) {
        self.role = role
        self.passwordHash = passwordHash
        self.disabled = disabled
    }
}

extension AccountChange {
    /// Whether the change ends the account's sessions: a new password, a new role, disabling.
    public var endsSessions: Bool { passwordHash != nil || role != nil || disabled == true }
}
