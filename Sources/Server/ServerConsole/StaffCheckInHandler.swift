import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/checkin`: staff check a visitor in at the door (no phone, a paper list), recorded
/// as `qrcheckin-server checkin` records it: method `staff`, the account as the operator, and
/// an audit entry in the same transaction (`StaffCheckIn`). Answers after the commit.
struct StaffCheckInHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        guard request.http.method == "POST" else {
            let done = request.query("done").flatMap(Int64.init).map { request.words.checkedIn($0) }
            return form(request, status: 200, notice: done, error: nil)
        }
        let words = request.words
        guard let venueText = request.form("venue"), let venue = try? VenueID(venueText), parts.venues.profile(for: venue) != nil else {
            return form(request, status: 400, notice: nil, error: words.unknownVenue)
        }
        // A name staff type is kept as the visitor form keeps one (one rule: `acceptableName`).
        var name: String?
        if let typed = request.form("name") {
            guard let accepted = Visitor.acceptableName(typed) else { return form(request, status: 400, notice: nil, error: words.badVisitor) }
            name = accepted
        }
        var phone: String?
        if let text = request.form("phone") {
            guard let digits = Visitor.normalizedPhone(text) else { return form(request, status: 400, notice: nil, error: words.badVisitor) }
            phone = digits
        }
        let visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        let profile = parts.venues.profile(for: venue)
        let admission: Admission
        do throws(LedgerError) {
            admission = try await StaffCheckIn(trail: request.trail(parts)).record(venue: venue, visitor: visitor, profile: profile)
        } catch {
            return request.unavailable()
        }
        switch admission {
        case .full(let inside):
            // The capacity holds at the door too; `checkin --over-capacity` (audited) is the
            // deliberate exception, from the shell.
            let capacity = profile?.presence.capacity ?? inside
            return form(request, status: 409, notice: nil, error: words.full(inside: inside, capacity: capacity))
        case .admitted(let outcome):
            return request.redirect(request.link(ConsolePage.checkin.path, "done=\(outcome.checkIn.id)"))
        }
    }

    private func form(_ request: ConsoleRequest, status: Int, notice: String?, error: String?) -> HTTPResponse {
        let words = request.words
        let known = parts.venues.profiles.keys.sorted { $0.rawValue < $1.rawValue }
        let venueInput: HTML = known.isEmpty
            ? "<input id=\"venue\" name=\"venue\" required autocapitalize=\"characters\" spellcheck=\"false\">"
            : "<select id=\"venue\" name=\"venue\">" + known.map { venue -> HTML in
                "<option value=\"\(venue.rawValue)\">\(parts.venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue)</option>"
            }.joined() + "</select>"
        let saved: HTML = notice.map { notice -> HTML in "<p class=\"ok\" role=\"status\">\(notice)</p>" } ?? ""
        let alert: HTML = error.map { error -> HTML in "<p class=\"error\" role=\"alert\">\(error)</p>" } ?? ""
        let content: HTML = """
            <h1>\(words.staffCheckIn)</h1>
            \(saved)
            \(alert)
            <form method="post" action="\(request.link(ConsolePage.checkin.path))">\(request.hiddenToken)
            <label for="venue">\(words.venue)</label>\(venueInput)
            <label for="name">\(words.name)</label><input id="name" name="name" autocomplete="off" maxlength="\(Visitor.maximumNameLength)">
            <label for="phone">\(words.phone)</label><input id="phone" name="phone" type="tel" autocomplete="off" inputmode="tel">
            <button type="submit">\(words.checkInButton)</button>
            </form>
            """
        return request.page(status, words.staffCheckIn, content)
    }
}
