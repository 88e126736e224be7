import ServerDomain
import Testing

/// Bounded memory that a flood of addresses cannot flush.
struct BoundedRateTableTests {
    let budget = RateBudget(burst: 5, intervalMilliseconds: 60_000)

    @Test func aClientHasItsBurstThenOneMorePerInterval() {
        let table = BoundedRateTable(budget: budget, capacity: 64)
        #expect((0..<5).allSatisfy { _ in table.admit("a", now: 0) })
        #expect(!table.admit("a", now: 0) && table.wait("a", now: 0) == 60_000)
        #expect(table.wait("b", now: 0) == 0)
        #expect(table.admit("a", now: 60_000) && !table.admit("a", now: 60_000))
    }

    @Test func aFloodOfDistinctSourcesNeverResetsALockedOutClient() {
        let table = BoundedRateTable(budget: budget, capacity: 1024)
        for _ in 0..<10 { table.spend("locked", now: 0) }
        for source in 0..<100_000 { table.spend("flood-\(source)", now: Int64(source / 100)) }
        #expect(table.wait("locked", now: 1000) > 0, "still locked out after 100,000 others")
    }

    @Test func aFullTableForgetsTheLeastSuspiciousFirst() async {
        let table = BoundedRateTable(budget: budget, capacity: 16)
        for _ in 0..<5 { table.spend("suspect", now: 0) }
        for source in 0..<1000 { table.spend("once-\(source)", now: 0) }
        #expect(table.wait("suspect", now: 0) > 0)
        // Memory is bounded: most of the one-try await clients are forgotten (and start afresh).
        #expect((0..<1000).filter { table.wait("once-\($0)", now: 0) > 0 }.count < 20)
    }
}
