import ServerDomain
import SharedDomain
import Synchronization

/// The console's accounts and sessions in memory: `InMemoryLedger`'s, and the reference the
/// database ledgers are held to by `AccountContract`.
public final class InMemoryAccounts: AccountLedger {
    struct State {
        var accounts: [String: ConsoleAccount] = [:]
        var sessions: [String: ConsoleSession] = [:]
        /// Each account's unused recovery codes' hashes.
        var recoveryCodes: [String: Set<String>] = [:]

        /// Account `name` as the ledgers read it: with how many recovery codes it has left.
        func read(_ name: String) -> ConsoleAccount? {
            guard var account = accounts[name] else { return nil }
            account.secondFactor?.recoveryCodesLeft = recoveryCodes[name]?.count ?? 0
            return account
        }
    }

    private let state = Mutex(State())

    /// No accounts, no sessions.
    public init() {}

    public func addAccount(_ account: ConsoleAccount) async throws(LedgerError) -> Bool {
        state.withLock { Self.addAccount(account, &$0) }
    }

    /// Adds `account` to `state` unless its name is taken.
    static func addAccount(_ account: ConsoleAccount, _ state: inout State) -> Bool {
        guard state.accounts[account.name] == nil else { return false }
        state.accounts[account.name] = account
        return true
    }

    /// Runs `body` on the state under the lock; the state changes only as `body` leaves it.
    func transact<T>(_ body: (inout State) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let result: Result<T, LedgerError> = state.withLock { state in
            do throws(LedgerError) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func account(named name: String) async throws(LedgerError) -> ConsoleAccount? {
        state.withLock { $0.read(name) }
    }

    public func accounts() async throws(LedgerError) -> [ConsoleAccount] {
        state.withLock { state in state.accounts.keys.sorted().compactMap { state.read($0) } }
    }

    public func changeAccount(named name: String, _ change: AccountChange) async throws(LedgerError) -> Bool {
        state.withLock { Self.changeAccount(named: name, change, &$0) }
    }

    /// Applies `change` to `state`'s account `name`, ending its sessions when the change does.
    static func changeAccount(named name: String, _ change: AccountChange, _ state: inout State) -> Bool {
        guard var account = state.accounts[name] else { return false }
        if let role = change.role { account.role = role }
        if let hash = change.passwordHash { account.passwordHash = hash }
        if let disabled = change.disabled { account.disabled = disabled }
        state.accounts[name] = account
        if change.endsSessions { state.sessions = state.sessions.filter { $0.value.account != name } }
        return true
    }

    public func removeAccount(named name: String) async throws(LedgerError) -> Bool {
        state.withLock { Self.removeAccount(named: name, &$0) }
    }

    /// Removes `state`'s account `name` and its sessions.
    static func removeAccount(named name: String, _ state: inout State) -> Bool {
        guard state.accounts.removeValue(forKey: name) != nil else { return false }
        state.sessions = state.sessions.filter { $0.value.account != name }
        state.recoveryCodes[name] = nil
        return true
    }

    /// Gives `state`'s password account `account` a second factor (`LedgerTransaction`).
    static func enableSecondFactor(account: String, sealedSecret: String, recoveryCodes: [String], lastStep: Int64?,
                                   _ state: inout State) -> Bool {
        guard state.accounts[account]?.signIn == .password else { return false }
        state.accounts[account]?.secondFactor = SecondFactorState(sealedSecret: sealedSecret, lastStep: lastStep, recoveryCodesLeft: 0)
        state.recoveryCodes[account] = Set(recoveryCodes)
        return true
    }

    /// Takes `state`'s account's second factor away.
    static func disableSecondFactor(account: String, _ state: inout State) -> Bool {
        guard state.accounts[account]?.secondFactor != nil else { return false }
        state.accounts[account]?.secondFactor = nil
        state.recoveryCodes[account] = nil
        return true
    }

    /// The compare-and-set of an accepted step (`LedgerTransaction.acceptSecondFactorStep`).
    static func acceptSecondFactorStep(account: String, step: Int64, resealed: String?, _ state: inout State) -> Bool {
        guard var factor = state.accounts[account]?.secondFactor, factor.lastStep.map({ $0 < step }) ?? true else { return false }
        factor.lastStep = step
        if let resealed { factor.sealedSecret = resealed }
        state.accounts[account]?.secondFactor = factor
        return true
    }

    /// Deletes one recovery code of `account`; false when it was not there.
    static func useRecoveryCode(account: String, hash: String, _ state: inout State) -> Bool {
        state.recoveryCodes[account]?.remove(hash) != nil
    }

    public func addSession(_ session: ConsoleSession) async throws(LedgerError) {
        state.withLock { $0.sessions[session.idHash] = session }
    }

    public func session(idHash: String) async throws(LedgerError) -> ConsoleSession? {
        state.withLock { $0.sessions[idHash] }
    }

    public func touchSession(idHash: String, at time: WallTime) async throws(LedgerError) {
        state.withLock { $0.sessions[idHash]?.lastSeen = time }
    }

    public func removeSession(idHash: String) async throws(LedgerError) {
        _ = state.withLock { $0.sessions.removeValue(forKey: idHash) }
    }

    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) async throws(LedgerError) -> Int {
        state.withLock { state in
            let before = state.sessions.count
            state.sessions = state.sessions.filter { $0.value.lastSeen >= idleBefore && $0.value.created >= createdBefore }
            return before - state.sessions.count
        }
    }
}

/// The ledger's accounts: every write fails as the ledger's writes do (`failWrites`).
extension InMemoryLedger {
    public func addAccount(_ account: ConsoleAccount) async throws(LedgerError) -> Bool {
        try checkWritable()
        return try await consoleAccounts.addAccount(account)
    }
    public func account(named name: String) async throws(LedgerError) -> ConsoleAccount? { try await consoleAccounts.account(named: name) }
    public func accounts() async throws(LedgerError) -> [ConsoleAccount] { try await consoleAccounts.accounts() }
    public func changeAccount(named name: String, _ change: AccountChange) async throws(LedgerError) -> Bool {
        try checkWritable()
        return try await consoleAccounts.changeAccount(named: name, change)
    }
    public func removeAccount(named name: String) async throws(LedgerError) -> Bool {
        try checkWritable()
        return try await consoleAccounts.removeAccount(named: name)
    }
    public func addSession(_ session: ConsoleSession) async throws(LedgerError) {
        try checkWritable()
        try await consoleAccounts.addSession(session)
    }
    public func session(idHash: String) async throws(LedgerError) -> ConsoleSession? { try await consoleAccounts.session(idHash: idHash) }
    public func touchSession(idHash: String, at time: WallTime) async throws(LedgerError) {
        try checkWritable()
        try await consoleAccounts.touchSession(idHash: idHash, at: time)
    }
    public func removeSession(idHash: String) async throws(LedgerError) {
        try checkWritable()
        try await consoleAccounts.removeSession(idHash: idHash)
    }
    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) async throws(LedgerError) -> Int {
        try checkWritable()
        return try await consoleAccounts.purgeSessions(idleBefore: idleBefore, createdBefore: createdBefore)
    }
}
