import ServerDomain
import SharedCLI

extension CommandError {
    /// A ledger failure with its documented exit status: 66 missing, 73 cannot open or create,
    /// 77 permission denied or read-only (the kiosk's 77 for a file this user may not use),
    /// 65 damaged or not a ledger, 78 a newer schema, 69 unavailable, 75 busy, 74 full,
    /// 70 anything else.
    init(_ error: LedgerError) {
        let code: ExitCode = switch error.kind {
        case .missing: .noInput
        case .cannotOpen: .cannotCreate
        case .permissionDenied, .readOnly: .noPermission
        case .corrupt: .dataError
        case .tooNew: .config
        case .unavailable: .unavailable
        case .busy: .tempFail
        case .full: .ioError
        case .failed: .software
        }
        self.init(code, error.message)
    }
}

/// The value of a ledger call, its failure as the command's (with the documented exit status).
func ledgerCall<T>(_ body: () async throws(LedgerError) -> T) async throws(CommandError) -> T {
    do throws(LedgerError) {
        return try await body()
    } catch {
        throw CommandError(error)
    }
}
