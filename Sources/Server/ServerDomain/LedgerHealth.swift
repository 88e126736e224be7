/// Whether the ledger answers, and what to tell the operator when that changes: one report when
/// an outage begins (its first failure) and one when it ends (the first success `settleMilliseconds`
/// after the last failure: a database going down fails its connections one by one, and a call
/// that still succeeds in between does not end the outage), never one per failed call. Only the
/// failures a retry may cure are an outage (`unavailable`, `busy`, `full`: the 503s); others are
/// one call's trouble.
public struct LedgerHealth: Sendable {
    /// A change worth a log line.
    public enum Report: Hashable, Sendable {
        /// The first failure of an outage.
        case outageBegan(LedgerError)
        /// The ledger answers again, after `failedCalls` failed calls over `milliseconds`.
        case outageEnded(failedCalls: Int, milliseconds: Int64)
    }

    /// When the current outage began (a monotonic clock's milliseconds); nil while healthy.
    public private(set) var outageStart: Int64?
    private var lastFailure: Int64 = 0
    private var failedCalls = 0
    /// How long after the last failure a success ends the outage.
    public let settleMilliseconds: Int64

    /// A ledger that answers.
    public init(settleMilliseconds: Int64 = 1000) {
        self.settleMilliseconds = settleMilliseconds
    }

    /// Whether failures of `kind` make an outage.
    public static func isOutage(_ kind: LedgerError.Kind) -> Bool {
        kind == .unavailable || kind == .busy || kind == .full
    }

    /// A call failed with `error` at `now`; the report when this begins an outage.
    public mutating func failed(_ error: LedgerError, at now: Int64) -> Report? {
        guard Self.isOutage(error.kind) else { return nil }
        failedCalls += 1
        lastFailure = now
        guard outageStart == nil else { return nil }
        outageStart = now
        return .outageBegan(error)
    }

    /// A call succeeded at `now`; the report when this ends an outage.
    public mutating func succeeded(at now: Int64) -> Report? {
        guard let start = outageStart, now - lastFailure >= settleMilliseconds else { return nil }
        defer {
            outageStart = nil
            failedCalls = 0
        }
        return .outageEnded(failedCalls: failedCalls, milliseconds: now - start)
    }
}
