import ServerDomain
import ServerHTTPTypes
import SharedDomain
import SharedJSON

/// `POST B/VENUE/kiosk`: a kiosk's signed report (docs/TOKEN.md, "Kiosk reports"). Verified
/// before anything is read or stored (`KioskReportReception.verify`: size, signature, venue
/// key, MAC, time, body, rate budget), stored as the kiosk's latest unless its nonce was seen,
/// then answered with the steer waiting for it, signed over the report's nonce. With `?wait=S`
/// and no steer waiting, the answer is held up to S seconds (at most 25) and given at once
/// when a steer arrives (the long poll that brings a console's click to the kiosk within a
/// second or so). A refusal is an RFC 9457 problem and is recorded nowhere.
struct KioskReportHandler: Sendable {
    let desk: KioskReportDesk?

    func post(_ request: HTTPRequest, venue: VenueID) async -> HTTPResponse {
        guard let desk else {
            return Self.problem(status: 404, code: "no-reports", title: "this server takes no kiosk reports", detail: "")
        }
        let verified: KioskReportReception.Verified
        do throws(KioskReportRefusal) {
            verified = try desk.reception.verify(venue: venue, header: request.headers["qrcheckin-report"], body: request.body,
                                                 bodyTooLarge: request.bodyTooLarge, client: request.clientKey)
        } catch {
            desk.counted(error)
            return Self.refused(error)
        }
        let hold = min(max(request.query["wait"].flatMap { Int($0) } ?? 0, 0), KioskReportDesk.maximumHoldSeconds)
        // Subscribed before the steer is read: a steer given in between rings this ticket.
        let ticket = hold > 0 ? desk.bell.subscribe(verified.key) : nil
        var steer: KioskSteer?
        do throws(KioskReportRefusal) {
            steer = try await desk.reception.store(verified)
        } catch {
            ticket?.cancel()
            desk.counted(error)
            return Self.refused(error)
        }
        desk.counted(nil)
        if let ticket {
            if steer == nil, await ticket.wait(upTo: .seconds(hold), clock: desk.clock) == .rung {
                steer = await desk.reception.pendingSteer(for: verified.key)
            } else {
                ticket.cancel()
            }
        }
        let answer = desk.reception.answer(verified, steer: steer)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                                                   (AnswerSignature.headerName, answer.signature)] + HTTPResponse.securityHeaders,
                            body: answer.body)
    }

    /// The problem a refusal is answered with.
    static func refused(_ refusal: KioskReportRefusal) -> HTTPResponse {
        var extra: [(name: String, value: String)] = []
        switch refusal {
        case .tooMany(let seconds): extra.append(("Retry-After", String(seconds)))
        case .unavailable: extra.append(("Retry-After", "5"))
        default: break
        }
        return problem(status: refusal.status, code: refusal.code, title: refusal.title, detail: refusal.detail, extra: extra)
    }

    /// An RFC 9457 problem (`application/problem+json`).
    static func problem(status: Int, code: String, title: String, detail: String,
                        extra: [(name: String, value: String)] = []) -> HTTPResponse {
        let body = JSONValue.object([
            ("type", .string("https://qrcheckin.invalid/problems/report/" + code)), ("title", .string(title)),
            ("status", .number(Int64(status))), ("detail", .string(detail)),
        ])
        return HTTPResponse(status: status, headers: [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")]
                            + extra + HTTPResponse.securityHeaders, body: body.serializedBytes)
    }
}
