import ServerLedgerContract
import ServerDomain
import ServerLedgerTesting
import SharedDomain
import Synchronization
import Testing

/// An outage of the ledger is reported twice, when it begins and when it ends, however many
/// calls fail in between; a failure that is one call's trouble is not an outage. The engine
/// (here the in-memory one) tells the watch of every call's answer.
struct LedgerHealthWatchTests {
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

    @Test func anOutageIsReportedOnceWhenItBeginsAndOnceWhenItEnds() async throws {
        let recorder = Recorder()
        let watch = LedgerHealthWatch(now: recorder.now, report: { change in recorder.reports.withLock { $0.append(change) } })
        let ledger = InMemoryLedger(observer: watch), inner = ledger
        _ = try await ledger.record(Self.entry("a"), duplicateSeconds: 60)
        #expect(recorder.all.isEmpty)
        let down = LedgerError(.unavailable, "connection refused")
        inner.fail(with: down)
        for index in 0..<50 {
            await #expect(throws: LedgerError.self) { try await ledger.record(Self.entry("b\(index)"), duplicateSeconds: 60) }
            recorder.advance(100)
        }
        await #expect(throws: LedgerError.self) { try await ledger.count(CheckInQuery()) }
        #expect(recorder.all == [.outageBegan(down)])
        #expect(watch.isInOutage)
        inner.fail(with: nil)
        // A call that succeeds while the database is still going down does not end the outage.
        _ = try await ledger.record(Self.entry("c"), duplicateSeconds: 60)
        inner.fail(with: down)
        recorder.advance(500)
        await #expect(throws: LedgerError.self) { try await ledger.count(CheckInQuery()) }
        inner.fail(with: nil)
        recorder.advance(999)
        _ = try await ledger.count(CheckInQuery())
        #expect(recorder.all == [.outageBegan(down)])
        recorder.advance(1)
        _ = try await ledger.count(CheckInQuery())
        _ = try await ledger.count(CheckInQuery())
        #expect(recorder.all == [.outageBegan(down), .outageEnded(failedCalls: 52, milliseconds: 6500)])
        #expect(!watch.isInOutage)
    }

    @Test func checkInsAreWatchedToo() async throws {
        let recorder = Recorder()
        let watch = LedgerHealthWatch(now: recorder.now, report: { change in recorder.reports.withLock { $0.append(change) } })
        let ledger = InMemoryLedger(observer: watch), inner = ledger
        let down = LedgerError(.unavailable, "connection refused")
        inner.fail(with: down)
        var answers: [Result<RecordOutcome, LedgerError>] = []
        answers.append(await Self.answer { () async throws(LedgerError) in try await ledger.record(Self.entry("a"), duplicateSeconds: 60) })
        #expect(recorder.all == [.outageBegan(down)])
        inner.fail(with: nil)
        recorder.advance(1000)
        answers.append(await Self.answer { () async throws(LedgerError) in try await ledger.record(Self.entry("a"), duplicateSeconds: 60) })
        #expect(recorder.all == [.outageBegan(down), .outageEnded(failedCalls: 1, milliseconds: 1000)])
        #expect(answers.count == 2 && answers[0] == .failure(down) && (try? answers[1].get()) != nil, "every answer reaches its caller")
    }

    /// A call's answer as a value.
    static func answer<T>(_ call: () async throws(LedgerError) -> T) async -> Result<T, LedgerError> {
        do throws(LedgerError) {
            return .success(try await call())
        } catch {
            return .failure(error)
        }
    }

    @Test func aFailureThatIsNotAnOutageIsNotReported() async throws {
        let recorder = Recorder()
        let watch = LedgerHealthWatch(now: recorder.now, report: { change in recorder.reports.withLock { $0.append(change) } })
        let ledger = InMemoryLedger(observer: watch), inner = ledger
        inner.fail(with: LedgerError(.failed, "invalid byte sequence"))
        await #expect(throws: LedgerError.self) { try await ledger.record(Self.entry("a"), duplicateSeconds: 60) }
        inner.fail(with: nil)
        _ = try await ledger.record(Self.entry("a"), duplicateSeconds: 60)
        #expect(recorder.all.isEmpty)
    }
}
