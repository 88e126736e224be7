@testable import KioskCore
import SharedDomain
import Testing

/// A pending reply alone: it says what the files show, and a change they do not show is
/// reported as not written.
@Suite struct PendingControlReplyTests {
    let model = CheckInViewModel(issuer: FakeIssuer(period: .standard), settings: OperatorSettings(), now: WallTime(seconds: 1_800_000_000))

    @Test func aChangeTheFilesShowIsAnsweredOkWithTheirDocument() {
        let reply = PendingControlReply(request: .setShake(.on))
        #expect(reply.text(model: model, onDisk: model.state, document: "{}") == "{\"ok\":true,\"state\":{}}")
        #expect(PendingControlReply(request: .get).text(model: model, onDisk: nil, document: "{}") == "{\"ok\":true,\"state\":{}}",
                "a read changes nothing, so nothing is missing from the files")
    }

    @Test func aChangeTheFilesDoNotShowIsNotWritten() {
        let reply = PendingControlReply(request: .setShake(.on)).text(model: model, onDisk: nil, document: "{}")
        #expect(reply.contains("\"code\":\"not-written\"") && reply.contains("nothing is on disk yet"))
        var paused = model.state
        paused.phase = .paused
        #expect(PendingControlReply(request: .setShake(.on)).text(model: model, onDisk: paused, document: "{}").contains("not-written"))
    }

    @Test func whatBecameOfTheSaveAndTheWriteComesFirst() {
        var pending = PendingControlReply(request: .setShake(.on))
        pending.notWritten = "disk full"
        #expect(pending.text(model: model, onDisk: model.state, document: "{}").contains("(disk full)"))
        pending.notSaved = "read-only"
        #expect(pending.text(model: model, onDisk: model.state, document: "{}").contains("\"code\":\"not-saved\""))
    }
}
