import CheckInDomain
import CheckInPresentation
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
