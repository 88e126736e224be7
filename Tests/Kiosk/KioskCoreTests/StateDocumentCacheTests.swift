import KioskCore
import SharedDomain
import Testing

/// `current.json` is serialised once per state: the write and the control reply share it.
@Suite struct StateDocumentCacheTests {
    @Test func theSameStateIsSerialisedOnceAndAnotherAgain() {
        let model = CheckInViewModel(issuer: FakeIssuer(period: .standard), settings: OperatorSettings(), now: WallTime(seconds: 1_800_000_000))
        var cache = StateDocumentCache()
        let text = cache.text(for: model.state, venue: .demo, period: .standard, pid: 42)
        #expect(text == String(decoding: StateDocument(state: model.state, venue: .demo, period: .standard, pid: 42).bytes, as: UTF8.self))
        #expect(cache.text(for: model.state, venue: .demo, period: .standard, pid: 7) == text, "the state is the key")
        var paused = model.state
        paused.phase = .paused
        let other = cache.text(for: paused, venue: .demo, period: .standard, pid: 42)
        #expect(other != text && other.contains("\"paused\""))
    }
}
