/// A ledger broke a rule of the contract: what was expected and what happened.
public struct ContractFailure: Error, CustomStringConvertible {
    /// The rule and the observation.
    public let description: String
    /// Where in the contract the check is.
    public let line: Int

    /// A failure at `line` of the contract.
    public init(_ description: String, line: Int) {
        self.description = description
        self.line = line
    }
}

/// Throws a failure unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) throws(ContractFailure) {
    if !condition { throw ContractFailure(message(), line: line) }
}

/// The value of a ledger call, or a failure naming the ledger's error.
func call<T>(_ what: String, line: Int = #line, _ body: () async throws(LedgerError) -> T) async throws(ContractFailure) -> T {
    do throws(LedgerError) {
        return try await body()
    } catch {
        throw ContractFailure("\(what) failed: \(error.kind.rawValue): \(error.message)", line: line)
    }
}

import ServerDomain
