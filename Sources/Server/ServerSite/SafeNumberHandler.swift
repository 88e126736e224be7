import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `B/VENUE`: the safe-number form (GET) and a typed safe number (POST), limited fairly
/// (`SafeNumberLimiter`).
struct SafeNumberHandler: Sendable {
    let parts: CheckInSite.Parts
    /// The form's purpose in its token.
    static let formPurpose = "safe-number"

    /// `GET B/VENUE`: the form, for a venue this server serves.
    func form(for request: SiteRequest, venue: VenueID) -> HTTPResponse {
        guard parts.useCase.profile(of: venue) != nil else { return Self.unknownVenue(request) }
        return request.page(200, page(request, venue: venue, message: nil))
    }

    /// 404 for a venue this server does not serve, or a path whose venue is no id (`Route`).
    static func unknownVenue(_ request: SiteRequest) -> HTTPResponse {
        request.page(404, request.pages.refusal(.unknownVenue, venue: nil))
    }

    /// `POST B/VENUE`: the typed number checks in; a wrong one counts against the phone and
    /// its network, a malformed one (not the shape of a safe number) against nobody.
    func post(_ request: SiteRequest, venue: VenueID) async -> HTTPResponse {
        guard !request.http.bodyTooLarge else { return request.tooLarge() }
        guard !request.isCrossSite else { return request.crossSite() }
        guard parts.useCase.profile(of: venue) != nil else { return Self.unknownVenue(request) }
        let known = request.existingDevice(parts.cookies)
        let network = request.http.clientKey
        if let wait = parts.limiter.wait(device: known, network: network) {
            parts.metrics.countRateLimited()
            let html = request.pages.tooMany(retryAfter: wait, now: parts.clock.now(), venue: venue, venueName: parts.useCase.displayName(of: venue))
            return request.page(429, html, extra: [("Retry-After", "\(wait)")])
        }
        guard parts.formTokens.isValid(request.http.form[FormTokens.field], Self.formPurpose, venue: venue, device: known, at: parts.clock.now()) else {
            return request.page(400, page(request, venue: venue, message: request.words.formExpired))
        }
        guard let number = Self.normalized(request.http.form["safe-number"] ?? "") else {
            return request.page(400, page(request, venue: venue, message: request.words.notSafeNumberShape))
        }
        let (device, newCookie) = request.scanDevice(parts.cookies)
        let code = Scan.Code.safeNumber(number)
        let outcome = await parts.useCase.checkIn(Scan(venue: venue, code: code, device: device, visitor: request.visitorCookie))
        parts.metrics.count(outcome, method: .safeNumber)
        if case .refused(let reason, _) = outcome, reason == .badMAC || reason == .malformed {
            // A wrong number: the form again, and one try less for this phone and network.
            parts.limiter.failed(device: known, network: network)
            return request.page(CheckInAnswers.status(of: reason), page(request, venue: venue, message: request.words.wrongSafeNumber))
        }
        return CheckInAnswers(parts: parts).response(to: outcome, code: code, device: device, newCookie: newCookie, for: request)
    }

    /// The form page, with a token for the device that sees it.
    private func page(_ request: SiteRequest, venue: VenueID, message: String?) -> HTML {
        let token = parts.formTokens.issue(Self.formPurpose, venue: venue, device: request.existingDevice(parts.cookies), at: parts.clock.now())
        return request.pages.safeNumberForm(venue: venue, venueName: parts.useCase.displayName(of: venue), message: message, formToken: token)
    }

    /// A typed safe number as the verifier takes it: full-width digits made ASCII, spaces,
    /// hyphens and dots dropped; nil when what is left is not of the safe number's shape
    /// (such a try is a typo to point out, not a guess to count).
    static func normalized(_ typed: String) -> String? {
        guard typed.unicodeScalars.count <= 64 else { return nil }
        var text = String.UnicodeScalarView()
        for scalar in typed.unicodeScalars {
            switch scalar.value {
            case 0xFF10...0xFF19: text.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
            case 0x2D, 0x2E, 0x2010...0x2015, 0x30FB, 0xFF0D, 0xFF0E: continue
            default: if !scalar.properties.isWhitespace { text.append(scalar) }
            }
        }
        let number = String(text)
        return SafeNumber.isWellFormed(number) ? SafeNumber.normalized(number) : nil
    }
}
