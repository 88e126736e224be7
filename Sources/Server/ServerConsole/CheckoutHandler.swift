import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/checkout`: staff end visits from the console, as `qrcheckin-server checkout` does
/// (`StaffCheckOut`: kind `staff`, the `staff-check-out` entry in the same transaction). One
/// visit by its receipt number, or every open visit at a venue after a confirmation that names
/// how many are inside there (the count the dashboard, the roll and `occupancy` show).
///
/// | request | what |
/// | --- | --- |
/// | `GET` | the two forms |
/// | `GET ?venue=V` | the confirmation: "check out all N visits at V?" |
/// | `POST checkin=ID` | ends that visit; 303 to `?checkin=ID&done=N` (N: 1, or 0 when it was out already) |
/// | `POST venue=V all=yes` | ends every open visit at V; 303 to `?venue=V&done=N` |
struct CheckoutHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        guard request.http.method == "POST" else {
            if let done = request.query("done").flatMap(Int.init) {
                let notice: String
                if let id = request.query("checkin").flatMap(Int64.init) {
                    notice = done > 0 ? words.checkedOutVisit(id) : words.alreadyOut(id)
                } else {
                    let venue = request.query("venue").flatMap { try? VenueID($0) }
                    notice = words.checkedOutAll(done, venue: venue.map { name(of: $0) } ?? "")
                }
                return forms(request, status: 200, notice: notice, error: nil)
            }
            if let text = request.query("venue") {
                guard let venue = try? VenueID(text) else { return forms(request, status: 400, notice: nil, error: words.unknownVenue) }
                return await confirmation(request, venue: venue)
            }
            return forms(request, status: 200, notice: nil, error: nil)
        }
        let target: CheckOutTarget
        if let text = request.form("checkin") {
            guard text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let id = Int64(text), id > 0 else {
                return forms(request, status: 400, notice: nil, error: words.fieldTakes("checkin"))
            }
            target = .checkIn(id)
        } else if let text = request.form("venue"), request.form("all") == "yes" {
            guard let venue = try? VenueID(text) else { return forms(request, status: 400, notice: nil, error: words.unknownVenue) }
            target = .venue(venue)
        } else {
            return forms(request, status: 400, notice: nil, error: words.checkoutWhat)
        }
        let report: CheckOutReport
        do throws(LedgerError) {
            report = try await StaffCheckOut(trail: request.trail(parts)).run(target)
        } catch {
            return request.unavailable()
        }
        switch target {
        case .checkIn(let id):
            guard report.visit != nil else { return forms(request, status: 404, notice: nil, error: words.noSuchCheckIn(id)) }
            return request.redirect(request.link(ConsolePage.checkout.path, "checkin=\(id)&done=\(report.closed)"))
        case .venue(let venue):
            return request.redirect(request.link(ConsolePage.checkout.path, "venue=\(venue.rawValue)&done=\(report.closed)"))
        case .device, .enteredBefore, .overstayed:
            return forms(request, status: 400, notice: nil, error: words.checkoutWhat)
        }
    }

    private func name(of venue: VenueID) -> String {
        parts.venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue
    }

    /// "Check out all N visits at V?": N the open visits there now, as the dashboard counts them.
    private func confirmation(_ request: ConsoleRequest, venue: VenueID) async -> HTTPResponse {
        let words = request.words
        let inside: Int
        do throws(LedgerError) {
            inside = try await LiveCounts.presence(from: parts.visits, venues: parts.venues, at: request.now)
                .first { $0.venue == venue }?.inside ?? 0
        } catch {
            return request.unavailable()
        }
        // Nobody inside: nothing to confirm (a button that ends nothing would still be audited).
        guard inside > 0 else {
            return forms(request, status: 200, notice: words.nobodyInside(name(of: venue)), error: nil)
        }
        let content: HTML = """
            <h1>\(words.checkOut)</h1>
            <p class="advice">\(words.confirmCheckoutAll(inside, venue: name(of: venue)))</p>
            <form method="post" action="\(request.link(ConsolePage.checkout.path))">\(request.hiddenToken)
            <input type="hidden" name="venue" value="\(venue.rawValue)"><input type="hidden" name="all" value="yes">
            <button type="submit">\(words.checkOutAllButton(inside))</button>
            </form>
            <p><a href="\(request.link(ConsolePage.checkout.path))">\(words.cancel)</a></p>
            """
        return request.page(200, words.checkOut, content)
    }

    /// One visit by its receipt number; every visit at a venue (confirmed on the next page).
    private func forms(_ request: ConsoleRequest, status: Int, notice: String?, error: String?) -> HTTPResponse {
        let words = request.words
        let known = parts.venues.profiles.keys.sorted { $0.rawValue < $1.rawValue }
        let venueInput: HTML = known.isEmpty
            ? "<input id=\"all-venue\" name=\"venue\" required autocapitalize=\"characters\" spellcheck=\"false\">"
            : "<select id=\"all-venue\" name=\"venue\">" + known.map { venue -> HTML in
                "<option value=\"\(venue.rawValue)\">\(name(of: venue))</option>"
            }.joined() + "</select>"
        let saved: HTML = notice.map { notice -> HTML in "<p class=\"ok\" role=\"status\">\(notice)</p>" } ?? ""
        let alert: HTML = error.map { error -> HTML in "<p class=\"error\" role=\"alert\">\(error)</p>" } ?? ""
        // A GET form drops its action's query: the language goes as a field, as the log's search.
        let language: HTML = request.languageQuery.isEmpty ? "" : "<input type=\"hidden\" name=\"lang\" value=\"\(words.language.rawValue)\">"
        let content: HTML = """
            <h1>\(words.checkOut)</h1>
            \(saved)
            \(alert)
            <h2>\(words.checkOutOne)</h2>
            <form method="post" action="\(request.link(ConsolePage.checkout.path))">\(request.hiddenToken)
            <label for="checkin">\(words.receipt)</label><input id="checkin" name="checkin" inputmode="numeric" autocomplete="off" required>
            <button type="submit">\(words.checkOut)</button>
            </form>
            <h2>\(words.checkOutEveryone)</h2>
            <form method="get" action="\(ConsolePage.checkout.path)">\(language)
            <label for="all-venue">\(words.venue)</label>\(venueInput)
            <button type="submit">\(words.next)</button>
            </form>
            """
        return request.page(status, words.checkOut, content)
    }
}
