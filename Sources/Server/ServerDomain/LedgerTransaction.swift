import SharedDomain

/// One transaction of the ledger, as `LedgerTransactions.transaction` hands it to an operator action:
/// the writes the action does and its audit entry, committed together when the action's body
/// returns and undone together when it throws. An audit entry that cannot be written (a full
/// disk) so undoes the action: the rule "an action and its audit entry are one" is kept by
/// the database, not by each caller's order of calls (`AuditTrail`).
///
/// Each method does what the ports' method of the same name does, inside the transaction; the
/// body runs on the engine's thread for blocking work, so these are synchronous. A transaction
/// lives only as long as the body it was given: neither keep nor share it.
public protocol LedgerTransaction {
    /// Records `checkIn` by `rules` (duplicates, capacity), as `VisitLedger.record` does.
    func record(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission

    /// Open visits at `venue` entered at or after `openSince` (nil: every open visit).
    func occupancy(venue: VenueID, openSince: WallTime?) throws(LedgerError) -> Int

    /// Records the exits `request` selects, as `VisitLedger.checkOut` does.
    func checkOut(_ request: CheckOutRequest) throws(LedgerError) -> CheckOutReport

    /// Deletes the check-ins of `subject` and their duplicate keys, for real; returns how many.
    func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int

    /// What `ErasureLedger.purge(request)` would delete now (its dry run), counted here.
    func purgeDue(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport

    /// Deletes the audit entries before `cutoff`; returns how many.
    func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int

    /// Adds `account` (false, nothing changed: the name is taken), as `AccountLedger` does.
    func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool

    /// Changes the account named `name` (false: none), ending its sessions when the change does.
    func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool

    /// Removes the account named `name` and its sessions (false: none).
    func removeAccount(named name: String) throws(LedgerError) -> Bool

    /// Gives the kiosk `key` the steer `change` asks, by `by` at `time`, merged into the steer
    /// still pending for it (`KioskSteerChange.merged`) under a new id; returns the steer, or
    /// nil (nothing written) when the kiosk never reported or was forgotten (`KioskSteering`).
    func steerKiosk(_ key: KioskKey, _ change: KioskSteerChange, by: OperatorName, at time: WallTime) throws(LedgerError) -> KioskSteer?

    /// Forgets the kiosk `key`: its latest report, its steer and its nonces; false when none
    /// (`KioskForgetting`). A kiosk that reports again is listed again.
    func forgetKiosk(_ key: KioskKey) throws(LedgerError) -> Bool

    /// Adds the API token `token` (false, nothing changed: the name is taken).
    func addToken(_ token: APIToken) throws(LedgerError) -> Bool

    /// Removes the API token named `name` (false: none); calls made with it fail from now on.
    func removeToken(named name: String) throws(LedgerError) -> Bool

    /// Every API token, by name.
    func tokens() throws(LedgerError) -> [APIToken]

    /// Stores a new console session (a sign-in's, with its entry).
    func addSession(_ session: ConsoleSession) throws(LedgerError)

    /// Ends the console session whose id hashes to `idHash` (a sign-out's, with its entry).
    func removeSession(idHash: String) throws(LedgerError)

    /// Gives the password account `account` the second factor `sealedSecret` with the hashes of
    /// its new recovery codes (any older ones are deleted) and `lastStep` as the step last
    /// accepted (an enrolment confirmed by a code; nil: none yet). False: no such password account.
    func enableSecondFactor(account: String, sealedSecret: String, recoveryCodes: [String], lastStep: Int64?) throws(LedgerError) -> Bool

    /// Takes `account`'s second factor away: its secret, last step and recovery codes. False:
    /// it had none.
    func disableSecondFactor(account: String) throws(LedgerError) -> Bool

    /// Accepts a code of `step` for `account`, compare-and-set: only when the account has a
    /// second factor and `step` is newer than its last accepted step, which it then becomes
    /// (with `resealed` as its sealed secret, when given: a secret rotation). False: a replay,
    /// or another sign-in took that step first (on any server of the ledger).
    func acceptSecondFactorStep(account: String, step: Int64, resealed: String?) throws(LedgerError) -> Bool

    /// The hashes of `account`'s unused recovery codes.
    func recoveryCodes(account: String) throws(LedgerError) -> [String]

    /// Uses the recovery code of `hash` of `account`: deletes it. False: it was not there
    /// (used already, by a sign-in that raced this one).
    func useRecoveryCode(account: String, hash: String) throws(LedgerError) -> Bool

    /// Appends `entry` to the audit log; returns it with the log's id.
    @discardableResult
    func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry
}
