@testable import ServerHTTP
import Testing

/// The fair-share rule on its own: who may open one more connection.
struct ConnectionShareTests {
    @Test func belowHalfOnlyThePerClientLimitCounts() {
        let share = ConnectionShare(limits: HTTPServerLimits())
        #expect(share.admits(held: 127, total: 511, networks: 3))
        #expect(!share.admits(held: 128, total: 200, networks: 3))
        #expect(share.admits(held: 0, total: 511, networks: 500))
    }

    @Test func withoutAPerClientLimitEveryoneIsAdmitted() {
        var limits = HTTPServerLimits()
        limits.connectionsPerClient = 0
        #expect(ConnectionShare(limits: limits).admits(held: 1000, total: 1023, networks: 1))
    }

    /// The slowloris: 10 addresses opening connections in turn for as long as they are
    /// let in. They stop near half the server together, and a newcomer is still let in.
    @Test func tenGreedyAddressesStopNearHalfTheServer() {
        let limits = HTTPServerLimits()
        let share = ConnectionShare(limits: limits)
        var held = [Int](repeating: 0, count: 10)
        var progress = true
        while progress {
            progress = false
            for index in held.indices where share.admits(held: held[index], total: held.reduce(0, +), networks: held.count) {
                held[index] += 1
                progress = true
            }
        }
        let total = held.reduce(0, +)
        #expect(total >= limits.connections / 2 && total <= limits.connections / 2 + 20, "they hold \(total)")
        #expect(held.max()! - held.min()! <= 1)
        #expect(share.admits(held: 0, total: total, networks: held.count))
        // A crowd of newcomers, each wanting the floor, still fits in what is left.
        #expect(limits.connections - total >= 100 * limits.fairShareFloor)
    }

    /// The same addresses coming one after another, each as greedy as it may be (110 each, as
    /// in the issue): the first ones keep what they took below half, each later one gets a
    /// share of what is left, and a quarter of the server stays free.
    @Test func greedyAddressesComingInTurnLeaveAQuarterFree() {
        let limits = HTTPServerLimits()
        let share = ConnectionShare(limits: limits)
        var held: [Int] = []
        for _ in 0..<10 {
            held.append(0)
            while held.last! < 110, share.admits(held: held.last!, total: held.reduce(0, +), networks: held.count) {
                held[held.count - 1] += 1
            }
        }
        let total = held.reduce(0, +)
        #expect(held.prefix(4) == [110, 110, 110, 110])
        #expect(total == 756, "they hold \(total)")
        #expect(share.admits(held: 0, total: total, networks: held.count))
    }

    @Test func theFloorHoldsWhenTheShareRoundsToNothing() {
        var limits = HTTPServerLimits()
        limits.fairShareFloor = 4
        let share = ConnectionShare(limits: limits)
        #expect(share.admits(held: 3, total: 1000, networks: 900))
        #expect(!share.admits(held: 4, total: 1000, networks: 900))
    }
}
