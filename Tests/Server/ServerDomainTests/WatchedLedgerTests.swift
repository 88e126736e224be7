import ServerLedgerContract
import ServerDomain
import SharedDomain
import Synchronization
import Testing

/// An outage of the ledger is reported twice, when it begins and when it ends, however many
/// calls fail in between; a failure that is one call's trouble is not an outage.
struct WatchedLedgerTests {
    final class Recorder: Sendable {
        let reports = Mutex<[LedgerHealth.Report]>([])
        let clock = Mutex<Int64>(0)
        func now() -> Int64 { clock.withLock { $0 } }
        func advance(_ milliseconds: Int64) { clock.withLock { $0 += milliseconds } }
        var all: [LedgerHealth.Report] { reports.withLock { $0 } }
    }

    static func entry(_ device: String) -> NewCheckIn {
        NewCheckIn(venue: Fixture.hall, time: WallTime(seconds: Fixture.start), method: .qr, windowAge: 0, device: DeviceID(device))
    }

    @Test func anOutageIsReportedOnceWhenItBeginsAndOnceWhenItEnds() throws {
        let inner = InMemoryLedger()
        let recorder = Recorder()
        let ledger = WatchedLedger(inner, now: recorder.now, report: { change in recorder.reports.withLock { $0.append(change) } })
        _ = try ledger.record(Self.entry("a"), duplicateSeconds: 60)
        #expect(recorder.all.isEmpty)
        let down = LedgerError(.unavailable, "connection refused")
        inner.fail(with: down)
        for index in 0..<50 {
            #expect(throws: LedgerError.self) { try ledger.record(Self.entry("b\(index)"), duplicateSeconds: 60) }
            recorder.advance(100)
        }
        #expect(throws: LedgerError.self) { try ledger.count(CheckInQuery()) }
        #expect(recorder.all == [.outageBegan(down)])
        #expect(ledger.isInOutage)
        inner.fail(with: nil)
        // A call that succeeds while the database is still going down does not end the outage.
        _ = try ledger.record(Self.entry("c"), duplicateSeconds: 60)
        inner.fail(with: down)
        recorder.advance(500)
        #expect(throws: LedgerError.self) { try ledger.count(CheckInQuery()) }
        inner.fail(with: nil)
        recorder.advance(999)
        _ = try ledger.count(CheckInQuery())
        #expect(recorder.all == [.outageBegan(down)])
        recorder.advance(1)
        _ = try ledger.count(CheckInQuery())
        _ = try ledger.count(CheckInQuery())
        #expect(recorder.all == [.outageBegan(down), .outageEnded(failedCalls: 52, milliseconds: 6500)])
        #expect(!ledger.isInOutage)
    }

    @Test func checkInsAnsweredThroughACompletionAreWatchedToo() throws {
        let inner = InMemoryLedger()
        let recorder = Recorder()
        let ledger = WatchedLedger(inner, now: recorder.now, report: { change in recorder.reports.withLock { $0.append(change) } })
        let down = LedgerError(.unavailable, "connection refused")
        inner.fail(with: down)
        let results = Mutex<[Result<RecordOutcome, LedgerError>]>([])
        ledger.record(Self.entry("a"), duplicateSeconds: 60) { result in results.withLock { $0.append(result) } }
        #expect(recorder.all == [.outageBegan(down)])
        inner.fail(with: nil)
        recorder.advance(1000)
        ledger.record(Self.entry("a"), duplicateSeconds: 60) { result in results.withLock { $0.append(result) } }
        #expect(recorder.all == [.outageBegan(down), .outageEnded(failedCalls: 1, milliseconds: 1000)])
        #expect(results.withLock { $0.count } == 2, "every completion is passed on")
    }

    @Test func aFailureThatIsNotAnOutageIsNotReported() throws {
        let inner = InMemoryLedger()
        let recorder = Recorder()
        let ledger = WatchedLedger(inner, now: recorder.now, report: { change in recorder.reports.withLock { $0.append(change) } })
        inner.fail(with: LedgerError(.failed, "invalid byte sequence"))
        #expect(throws: LedgerError.self) { try ledger.record(Self.entry("a"), duplicateSeconds: 60) }
        inner.fail(with: nil)
        _ = try ledger.record(Self.entry("a"), duplicateSeconds: 60)
        #expect(recorder.all.isEmpty)
    }
}
