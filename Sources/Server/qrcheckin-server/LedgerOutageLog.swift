import ServerDomain
import SharedSystem

/// The two log lines of a ledger outage: when check-ins start being answered with 503, and
/// when they are recorded again.
enum LedgerOutageLog {
    /// Logs `report` to `logger`.
    static func write(_ report: LedgerHealth.Report, to logger: Logger) {
        switch report {
        case .outageBegan(let error):
            logger.error("the ledger is unavailable, check-ins are answered with 503 until it returns: \(error.message)")
        case .outageEnded(let failedCalls, let milliseconds):
            let seconds = Double(milliseconds / 100) / 10
            logger.notice("the ledger answers again after \(seconds) s; \(failedCalls) calls failed meanwhile (nothing acknowledged)")
        }
    }
}
