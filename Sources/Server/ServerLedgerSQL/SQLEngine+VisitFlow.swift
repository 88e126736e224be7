import ServerDomain

// The console's occupancy curve (`VisitFlowLog`), written once for both SQL engines.
extension SQLEngine {
    public func visitFlow(_ query: VisitFlowQuery) async throws(LedgerError) -> [VisitFlow] {
        try await reading { [sql] session throws(LedgerError) in try sql.visitFlow(query, on: session) }
    }
}
