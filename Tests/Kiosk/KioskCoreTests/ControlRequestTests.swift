import KioskCore
import SharedDomain
import SharedJSON
import Testing

@Suite struct ControlRequestTests {
    @Test(arguments: [
        ("get", ControlRequest.get, nil), ("shake", .shake, .shakeRequested),
        ("shake on", .setShake(.on), .shakeModeSet(.on)), ("shake off", .setShake(.off), .shakeModeSet(.off)),
        ("shake toggle", .toggleShake, .shakeModeToggled), ("refresh auto", .setRefresh(.auto), .refreshModeSet(.auto)),
        ("refresh pause", .setRefresh(.paused), .refreshModeSet(.paused)), ("refresh now\r", .refreshNow, .refreshRequested),
        ("  refresh   now ", .refreshNow, .refreshRequested),
    ] as [(String, ControlRequest, CheckInViewModelInput?)])
    func parsesEveryRequest(line: String, request: ControlRequest, input: CheckInViewModelInput?) throws {
        #expect(try ControlRequest(line: line) == request)
        #expect(request.input == input)
    }

    @Test(arguments: ["", "GET", "shake maybe", "refresh", "get get", "\u{1}\u{7F}", String(repeating: "x", count: 300)])
    func refusesAnythingElseQuotingItSafely(line: String) {
        do {
            _ = try ControlRequest(line: line)
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.message.hasPrefix("unknown request '"))
            #expect(error.message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
            #expect(error.message.count < 150)
        }
    }
}

@Suite struct ControlReplyTests {
    func reply(_ request: ControlRequest, _ settings: OperatorSettings, issued: Bool = true) throws -> JSONValue {
        let phase: CheckInState.Phase = settings.refresh == .paused
            ? .paused : .showing(FakeIssuer(period: .standard).code(window: 1, sequence: 0))
        let state = CheckInState(phase: phase, settings: settings, health: .ok, secondsLeft: 3, updatedAt: WallTime(seconds: 16))
        let document = StateDocument(state: state, venue: .demo, period: .standard, pid: 5)
        let text = ControlReply.text(for: request, outcome: ControlReply.Outcome(settings: settings, issued: issued),
                                     document: document.json.serialized)
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(value["state"] == document.json, "every reply carries the state after the request")
        return value
    }

    @Test func acceptedRequestsSayOK() throws {
        #expect(try reply(.get, OperatorSettings())["ok"] == .bool(true))
        #expect(try reply(.shake, OperatorSettings())["ok"] == .bool(true))
        #expect(try reply(.setRefresh(.paused), OperatorSettings(refresh: .paused))["ok"] == .bool(true))
    }

    @Test func requestsThatCannotProduceACodeSayWhy() throws {
        let off = try reply(.shake, OperatorSettings(shake: .off))
        #expect(off["ok"] == .bool(false) && off["code"] == .string("shake-off"))
        for request in [ControlRequest.shake, .refreshNow] {
            let paused = try reply(request, OperatorSettings(refresh: .paused))
            #expect(paused["ok"] == .bool(false) && paused["code"] == .string("paused"))
            #expect(paused["error"]?.string?.contains("ctl refresh auto") == true)
        }
    }

    @Test func aReplySaysOKOnlyWhenWhatWasAskedIsSavedWrittenAndIssued() {
        let settings = OperatorSettings()
        func failure(_ request: ControlRequest, _ outcome: ControlReply.Outcome) -> String? {
            ControlReply.failure(for: request, outcome: outcome)?.code
        }
        #expect(failure(.setRefresh(.paused), .init(settings: OperatorSettings(refresh: .paused), notSaved: "disk full")) == "not-saved")
        #expect(failure(.refreshNow, .init(settings: settings, issued: true, notWritten: "read-only")) == "not-written")
        #expect(failure(.setShake(.off), .init(settings: OperatorSettings(shake: .off), notWritten: "read-only")) == "not-written")
        #expect(failure(.refreshNow, .init(settings: settings, heldBack: "the wall clock moved back")) == "not-issued")
        #expect(failure(.shake, .init(settings: settings, waitingForClock: true)) == "waiting")
        #expect(failure(.refreshNow, .init(settings: settings, issued: true)) == nil)
        #expect(failure(.get, .init(settings: settings, heldBack: "the wall clock moved back")) == nil, "a get asks for nothing")
        // Saving comes first: a change that is not on disk is not made, whatever else holds.
        #expect(failure(.refreshNow, .init(settings: OperatorSettings(refresh: .paused), notSaved: "disk full")) == "not-saved")
    }

    @Test func theReplyIsTheSameBytesAsSerialisingItWhole() {
        // The reply splices the already serialised document in: the bytes must not change.
        let state = CheckInState(phase: .showing(FakeIssuer(period: .standard).code(window: 1, sequence: 0)),
                                 settings: OperatorSettings(shake: .off), health: .degraded(reason: "a \"quoted\" disk"),
                                 secondsLeft: 3, updatedAt: WallTime(seconds: 16))
        let document = StateDocument(state: state, venue: .demo, period: .standard, pid: 5).json
        #expect(ControlReply.text(for: .get, outcome: ControlReply.Outcome(settings: state.settings), document: document.serialized)
            == JSONValue.object([("ok", .bool(true)), ("state", document)]).serialized)
        #expect(ControlReply.text(for: .shake, outcome: ControlReply.Outcome(settings: state.settings), document: document.serialized)
            == JSONValue.object([("ok", .bool(false)), ("code", .string("shake-off")),
                                 ("error", .string("shake mode is off: shake ignored")), ("state", document)]).serialized)
    }
}
