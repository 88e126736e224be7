@testable import ServerHTTP
import Testing

/// The tracker's count of a client's connections between libmicrohttpd's moments: admitted by
/// the accept policy on one of its threads, started (or dropped) on that thread, closed. The
/// threads are named here, so each interleaving is played as it is written.
struct ConnectionTrackerTests {
    private let client = ClientNetwork(family: 4, prefix: 0x7f00_0003)
    private let other = ClientNetwork(family: 4, prefix: 0x7f00_0002)
    private let first: ConnectionTracker.AcceptingThread = 1, second: ConnectionTracker.AcceptingThread = 2

    private func tracker(perClient: Int) -> ConnectionTracker {
        var limits = HTTPServerLimits()
        limits.connectionsPerClient = perClient
        return ConnectionTracker(limits: limits)
    }

    @Test func anAdmittedConnectionCountsBeforeItStarts() {
        let tracker = tracker(perClient: 2)
        #expect(tracker.admits(client, on: first))
        _ = tracker.opened(descriptor: 10, network: client, now: 0, on: first)
        // The second is admitted on one thread; the other thread decides before it starts.
        #expect(tracker.admits(client, on: first))
        #expect(!tracker.admits(client, on: second))
        _ = tracker.opened(descriptor: 11, network: client, now: 0, on: first)
        #expect(tracker.held(by: client) == 2 && tracker.count == 2)
    }

    @Test func startingTakesOverTheAdmissionAndClosingGivesItBack() {
        let tracker = tracker(perClient: 1)
        #expect(tracker.admits(client, on: first))
        let connection = tracker.opened(descriptor: 10, network: client, now: 0, on: first)
        #expect(tracker.held(by: client) == 1, "counted once, not at its admission and again at its start")
        #expect(!tracker.admits(client, on: second))
        tracker.closed(connection)
        tracker.closed(connection)  // told twice: counted down once
        #expect(tracker.held(by: client) == 0 && tracker.count == 0)
        #expect(tracker.admits(client, on: second))
    }

    @Test func anAdmissionThatNeverStartedIsGivenBackAtItsThreadsNextDecision() {
        let tracker = tracker(perClient: 1)
        // libmicrohttpd admitted it, then could not make its memory: no start, no close.
        #expect(tracker.admits(client, on: first))
        #expect(!tracker.admits(client, on: second), "until its thread decides again, it may still start")
        #expect(tracker.admits(other, on: first))
        #expect(tracker.held(by: client) == 0)
        #expect(tracker.admits(client, on: second))
    }
}
