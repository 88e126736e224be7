/// The kiosks' statements, rendered for both engines once (`LedgerSchema+Kiosks`).
extension LedgerStatements {
    static let expireKioskNonces = SQLStatement(LedgerSchema.expireKioskNonces)
    static let insertKioskNonce = SQLStatement(LedgerSchema.insertKioskNonce)
    static let upsertKiosk = SQLStatement(LedgerSchema.upsertKiosk)
    static let selectKioskSteer = SQLStatement(LedgerSchema.selectKioskSteer)
    static let markSteerApplied = SQLStatement(LedgerSchema.markSteerApplied)
    static let insertKioskSteer = SQLStatement(LedgerSchema.insertKioskSteer)
    static let deleteOlderSteers = SQLStatement(LedgerSchema.deleteOlderSteers)
    static let selectKioskForSteer = SQLStatement(LedgerSchema.selectKioskForSteer)
    static let selectKiosksOfVenue = SQLStatement(LedgerSchema.selectKiosksOfVenue)
    static let selectAllKiosks = SQLStatement(LedgerSchema.selectAllKiosks)
    static let selectKiosk = SQLStatement(LedgerSchema.selectKiosk)
    static let selectSteersAfter = SQLStatement(LedgerSchema.selectSteersAfter)
    static let selectLatestSteerID = SQLStatement(LedgerSchema.selectLatestSteerID)
    static let deleteKiosk = SQLStatement(LedgerSchema.deleteKiosk)
    static let deleteKioskSteers = SQLStatement(LedgerSchema.deleteKioskSteers)
    static let deleteKioskNonces = SQLStatement(LedgerSchema.deleteKioskNonces)
}
