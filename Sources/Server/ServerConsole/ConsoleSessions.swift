import ServerDomain
import SharedDomain

/// Console sessions: a random 32-byte id in the browser's cookie, only its hash in the ledger,
/// a new one at every sign-in, ended after 30 idle minutes, 12 hours after sign-in whatever
/// happens, and at sign-out (everywhere: the ledger is shared). Times from the injected clock.
public struct ConsoleSessions: Sendable {
    /// The cookie's name.
    public static let cookie = "qrcheckin_console"
    /// Idle this long, a session ends.
    public static let idleSeconds: Int64 = 30 * 60
    /// This long after sign-in, a session ends.
    public static let lifetimeSeconds: Int64 = 12 * 3600
    /// A session's last use is written at most this often (a page view is not a write each).
    public static let touchSeconds: Int64 = 60

    let accounts: any AccountLedger
    let clock: any WallClock
    let crypto: ConsoleCrypto

    /// Sessions kept in `accounts`, timed by `clock`.
    public init(accounts: any AccountLedger, clock: any WallClock, crypto: ConsoleCrypto) {
        self.accounts = accounts
        self.clock = clock
        self.crypto = crypto
    }

    /// A signed-in request: its session and its account as it is now.
    public struct Current: Sendable {
        public let session: ConsoleSession
        public let account: ConsoleAccount
    }

    /// A new session of `account` (stored by the sign-in, with its audit entry:
    /// `ConsoleSignIn`) and the cookie's value (the id, 64 hex digits).
    public func make(for account: ConsoleAccount) -> (session: ConsoleSession, cookie: String) {
        let id = crypto.random(32)
        let now = clock.now()
        return (ConsoleSession(idHash: hash(id), account: account.name, created: now, lastSeen: now, formToken: crypto.randomHex(32)),
                ConsoleCrypto.hex(id))
    }

    /// The live session the cookie names, with its account (enabled); nil for none, an
    /// unknown, expired or ended one (an expired one is removed).
    public func current(cookie: String?) async throws(LedgerError) -> Current? {
        guard let cookie, let id = Self.bytes(hex: cookie), id.count == 32 else { return nil }
        let idHash = hash(id)
        guard let session = try await accounts.session(idHash: idHash) else { return nil }
        let now = clock.now().milliseconds
        if now - session.lastSeen.milliseconds >= Self.idleSeconds * 1000 || now - session.created.milliseconds >= Self.lifetimeSeconds * 1000 {
            try await accounts.removeSession(idHash: idHash)
            return nil
        }
        guard let account = try await accounts.account(named: session.account), !account.disabled else { return nil }
        if now - session.lastSeen.milliseconds >= Self.touchSeconds * 1000 {
            try await accounts.touchSession(idHash: idHash, at: WallTime(milliseconds: now))
        }
        return Current(session: session, account: account)
    }

    /// The stored hash of the session the cookie names, if it names one: what a sign-out ends
    /// (`ConsoleSignIn`).
    public func idHash(cookie: String?) -> String? {
        guard let cookie, let id = Self.bytes(hex: cookie), id.count == 32 else { return nil }
        return hash(id)
    }

    /// Removes every expired session (the retention's daily run and the sign-in form).
    public func purgeExpired() async throws(LedgerError) -> Int {
        let now = clock.now().milliseconds
        return try await accounts.purgeSessions(idleBefore: WallTime(milliseconds: now - Self.idleSeconds * 1000),
                                          createdBefore: WallTime(milliseconds: now - Self.lifetimeSeconds * 1000))
    }

    private func hash(_ id: [UInt8]) -> String { ConsoleCrypto.hex(crypto.digest(id)) }

    /// The bytes of lower-case hex `text`; nil when it is not.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0, utf8.count <= 128 else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
