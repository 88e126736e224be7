import ServerDomain
import SharedSystem

extension CheckInLedger {
    /// Records and waits for the commit, through the one bridge (`Rendezvous`): the contract's
    /// and the ledgers' tests read as one step after another. The server never waits so.
    public func record(_ checkIn: NewCheckIn, duplicateSeconds: Int64) throws(LedgerError) -> RecordOutcome {
        try Rendezvous.wait { record(checkIn, duplicateSeconds: duplicateSeconds, completion: $0) }.get()
    }
}

extension CheckInLedger {
    /// Records by `rules` and waits for the commit (`Rendezvous`).
    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        try Rendezvous.wait { record(checkIn, rules: rules, completion: $0) }.get()
    }

    /// Checks out and waits for the commit (`Rendezvous`).
    public func checkOut(_ request: CheckOutRequest) throws(LedgerError) -> CheckOutReport {
        try Rendezvous.wait { checkOut(request, completion: $0) }.get()
    }
}
