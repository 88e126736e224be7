import SharedAsync

/// The blocking pool the tests' ledgers run their reads (and PostgreSQL its calls) on: one for
/// the whole run, as a server has one.
enum TestPool {
    static let shared = try! BlockingPool(threads: 8, name: "test-ledger")
}
