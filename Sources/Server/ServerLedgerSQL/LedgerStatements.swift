/// Every statement the ledger runs, each written once in `LedgerSchema` and rendered for both
/// engines here, once (`SQLStatement`).
enum LedgerStatements {
    static let claimPresence = SQLStatement(LedgerSchema.claimPresence)
    static let insertCheckIn = SQLStatement(LedgerSchema.insertCheckIn)
    static let claimAndInsert = SQLStatement(LedgerSchema.claimAndInsert)
    static let earlierCheckIn = SQLStatement(LedgerSchema.earlierCheckIn)
    static let lockVenue = SQLStatement(LedgerSchema.lockVenue)
    static let countOpenAtVenue = SQLStatement(LedgerSchema.countOpenAtVenue)
    static let checkInByID = SQLStatement(LedgerSchema.checkInByID)
    static let insertRefusal = SQLStatement(LedgerSchema.insertRefusal)
    static let devicesPrefixed = SQLStatement(LedgerSchema.devicesPrefixed)
    static let countOpen = SQLStatement(LedgerSchema.countOpen)
    /// Pages of open visits: (at a venue, after a position) each way.
    static let selectOpenPage = Dictionary(uniqueKeysWithValues: [false, true].flatMap { venue in [false, true].map { after in
        (OpenPage(atVenue: venue, after: after), SQLStatement(LedgerSchema.selectOpenPage(atVenue: venue, after: after)))
    } })
    static let selectMeeting = SQLStatement(LedgerSchema.selectMeeting)
    static let endVisit = SQLStatement(LedgerSchema.endVisit)
    static let latestVisit = SQLStatement(LedgerSchema.latestVisit)
    static let releaseClaim = SQLStatement(LedgerSchema.releaseClaim)
    static let releaseClaimsOfOpen = SQLStatement(LedgerSchema.releaseClaimsOfOpen)
    static let endOpenVisits = SQLStatement(LedgerSchema.endOpenVisits)
    static let keepDailyCounts = SQLStatement(LedgerSchema.keepDailyCounts)
    static let selectKeptCounts = SQLStatement(LedgerSchema.selectKeptCounts)
    static let insertAudit = SQLStatement(LedgerSchema.insertAudit)
    static let selectAudit = SQLStatement(LedgerSchema.selectAudit)
    static let countRefusals = SQLStatement(LedgerSchema.countRefusals)
    static let visitFlow = SQLStatement(LedgerSchema.visitFlow)
    static let insertAccount = SQLStatement(LedgerSchema.insertAccount)
    static let selectAccount = SQLStatement(LedgerSchema.selectAccount)
    static let selectAccounts = SQLStatement(LedgerSchema.selectAccounts)
    static let updateAccount = SQLStatement(LedgerSchema.updateAccount)
    static let deleteAccount = SQLStatement(LedgerSchema.deleteAccount)
    static let deleteAccountSessions = SQLStatement(LedgerSchema.deleteAccountSessions)
    static let enableSecondFactor = SQLStatement(LedgerSchema.enableSecondFactor)
    static let disableSecondFactor = SQLStatement(LedgerSchema.disableSecondFactor)
    static let acceptSecondFactorStep = SQLStatement(LedgerSchema.acceptSecondFactorStep)
    static let insertRecoveryCode = SQLStatement(LedgerSchema.insertRecoveryCode)
    static let selectRecoveryCodes = SQLStatement(LedgerSchema.selectRecoveryCodes)
    static let deleteRecoveryCode = SQLStatement(LedgerSchema.deleteRecoveryCode)
    static let deleteRecoveryCodes = SQLStatement(LedgerSchema.deleteRecoveryCodes)
    static let insertSession = SQLStatement(LedgerSchema.insertSession)
    static let selectSession = SQLStatement(LedgerSchema.selectSession)
    static let touchSession = SQLStatement(LedgerSchema.touchSession)
    static let deleteSession = SQLStatement(LedgerSchema.deleteSession)
    static let purgeSessions = SQLStatement(LedgerSchema.purgeSessions)

    /// The rows of `table` before $1 (ms), counted and deleted.
    static let countBefore = Dictionary(uniqueKeysWithValues: LedgerTable.allCases.map { ($0, SQLStatement(LedgerSchema.countBefore($0))) })
    static let deleteBefore = Dictionary(uniqueKeysWithValues: LedgerTable.allCases.map { ($0, SQLStatement(LedgerSchema.deleteBefore($0))) })
    /// Where a purge's batch of `table` ends.
    static let batchBound = Dictionary(uniqueKeysWithValues: LedgerTable.allCases.map { ($0, SQLStatement(LedgerSchema.batchBound($0))) })
}

/// Which of the open visits' page statements.
struct OpenPage: Hashable {
    let atVenue: Bool
    let after: Bool
}
