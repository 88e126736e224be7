import ServerDomain
import ServerReports
import SharedDomain

/// The pages' contents, one function per page, in one language. Every value from outside
/// (venue names, ids) is escaped here.
struct Pages {
    let words: ServerWords
    /// The base path (`/C`).
    let base: String
    let zone: any LocalTimeZone

    var assets: String { base + "/_" }

    private func document(_ page: Page) -> String { page.render(words: words, assets: assets) }

    /// The receipt: venue, local time of the check-in, and a live clock with a moving element;
    /// while the visit is open, a form whose button checks out (`formToken`: its CSRF token).
    func receipt(_ checkIn: CheckIn, venueName: String, again: Bool, now: WallTime, path: String, formToken: String? = nil) -> String {
        if checkIn.exit != nil { return checkedOut(checkIn, venueName: venueName, again: true, now: now) }
        let at = LocalTime(checkIn.time, in: zone)
        let current = LocalTime(now, in: zone)
        let status = again ? words.alreadyCheckedIn(at: at.minute) : words.checkedIn
        let content = """
            <p class="status\(again ? " again" : "")"><span class="mark" aria-hidden="true">\(again ? "↺" : "✓")</span> \(HTML.escape(status))</p>
            <h1 class="venue">\(HTML.escape(venueName))</h1>
            \(venueName == checkIn.venue.rawValue ? "" : "<p class=\"venue-id\">\(HTML.escape(checkIn.venue.rawValue))</p>")
            <dl>
            <dt>\(HTML.escape(words.time))</dt>
            <dd><time class="checked" datetime="\(at.iso8601)">\(at.date) \(at.minute)</time></dd>
            </dl>
            <div class="live" aria-label="\(HTML.escape(words.now))">
            <span class="sweep" aria-hidden="true"></span>
            <time id="clock" data-offset="\(current.offsetSeconds)" datetime="\(current.iso8601)">\(current.second)</time>
            </div>
            <p class="note">\(HTML.escape(words.showStaff))</p>
            \(formToken.map { checkOutForm(path: path, formToken: $0) } ?? "")
            """
        return document(Page(title: "\(status) · \(venueName)", kind: again ? "receipt again" : "receipt", content: content, switchTarget: path))
    }

    /// The receipt's check-out form: a POST to the receipt's own address.
    private func checkOutForm(path: String, formToken: String) -> String {
        """
        <form method="post" action="\(HTML.escape(path))?lang=\(words.language.rawValue)" class="checkout" accept-charset="utf-8">
        <input type="hidden" name="\(FormTokens.field)" value="\(HTML.escape(formToken))">
        <p class="hint">\(HTML.escape(words.checkOutHint))</p>
        <button type="submit" name="action" value="check-out">\(HTML.escape(words.checkOutButton))</button>
        </form>
        """
    }

    /// The checked-out page: when the visit ended and how long it lasted (an automatic end is
    /// said to be one, never shown as a time of leaving).
    func checkedOut(_ visit: CheckIn, venueName: String, again: Bool, now: WallTime) -> String {
        let entered = LocalTime(visit.time, in: zone)
        let exit = visit.exit ?? VisitExit(time: now, kind: .staff)
        let left = LocalTime(exit.time, in: zone)
        let status = again ? words.alreadyCheckedOut(at: left.minute) : words.checkedOut(at: left.minute)
        let minutes = visit.stayMilliseconds(now: now) / 60_000
        var content = """
            <p class="status checked-out"><span class="mark" aria-hidden="true">→</span> \(HTML.escape(status))</p>
            <h1 class="venue">\(HTML.escape(venueName))</h1>
            <p class="stay">\(HTML.escape(words.stayed(minutes: minutes)))</p>
            <dl>
            <dt>\(HTML.escape(words.entered))</dt>
            <dd><time datetime="\(entered.iso8601)">\(entered.date) \(entered.minute)</time></dd>
            <dt>\(HTML.escape(words.left))</dt>
            <dd><time datetime="\(left.iso8601)">\(left.date) \(left.minute)</time></dd>
            </dl>
            """
        if exit.kind == .automatic { content += "\n<p class=\"note\">\(HTML.escape(words.exitEndedAutomatically))</p>" }
        return document(Page(title: "\(status) · \(venueName)", kind: "checked-out", content: content, switchTarget: nil))
    }

    /// The full page: how many are inside of how many, and to wait.
    func full(venueName: String, inside: Int, capacity: Int) -> String {
        let title = words.full(inside: inside, capacity: capacity)
        let content = """
            <p class="status refused full"><span class="mark" aria-hidden="true">✕</span> \(HTML.escape(title))</p>
            <h1 class="venue">\(HTML.escape(venueName))</h1>
            <p class="advice">\(HTML.escape(words.fullAdvice))</p>
            """
        return document(Page(title: title, kind: "refusal full", content: content, switchTarget: nil))
    }

    /// A refusal: what happened and what to do; a link to the safe-number form when the venue is known.
    func refusal(_ reason: RefusalReason, venue: VenueID?) -> String {
        let (title, advice) = words.refusal(reason)
        var content = """
            <p class="status refused"><span class="mark" aria-hidden="true">✕</span> \(HTML.escape(title))</p>
            <p class="advice">\(HTML.escape(advice))</p>
            """
        if let venue, reason != .unknownVenue {
            content += "\n<p><a class=\"button\" href=\"\(HTML.escape(base + "/" + venue.rawValue))?lang=\(words.language.rawValue)\">\(HTML.escape(words.formTitle))</a></p>"
        }
        return document(Page(title: title, kind: "refusal \(reason.rawValue)", content: content, switchTarget: nil))
    }

    /// The safe-number form, with a message after a wrong try.
    func safeNumberForm(venue: VenueID, venueName: String, message: String?, formToken: String) -> String {
        let action = HTML.escape(base + "/" + venue.rawValue) + "?lang=\(words.language.rawValue)"
        var content = """
            <h1 class="venue">\(HTML.escape(venueName))</h1>
            \(venueName == venue.rawValue ? "" : "<p class=\"venue-id\">\(HTML.escape(venue.rawValue))</p>")
            <h2>\(HTML.escape(words.formTitle))</h2>
            """
        if let message { content += "\n<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>" }
        content += """

            <form method="post" action="\(action)" accept-charset="utf-8">
            <input type="hidden" name="\(FormTokens.field)" value="\(HTML.escape(formToken))">
            <label for="safe-number">\(HTML.escape(words.safeNumber))</label>
            <input id="safe-number" name="safe-number" type="text" inputmode="text" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="16" required>
            <p class="hint">\(HTML.escape(words.formHint))</p>
            <button type="submit">\(HTML.escape(words.checkInButton))</button>
            </form>
            """
        return document(Page(title: words.formTitle, kind: "form", content: content, switchTarget: base + "/" + venue.rawValue))
    }

    /// The visitor-log form: the fields the venue asks for, the pending scan in a signed ticket.
    func visitorForm(venue: VenueID, venueName: String, fields: VisitorFields, ticket: String, message: String?) -> String {
        var content = """
            <h1 class="venue">\(HTML.escape(venueName))</h1>
            <h2>\(HTML.escape(words.visitorTitle))</h2>
            <p class="hint">\(HTML.escape(words.visitorHint))</p>
            """
        if let message { content += "\n<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>" }
        content += "\n<form method=\"post\" action=\"\(HTML.escape(base + "/" + venue.rawValue + "/visitor"))?lang=\(words.language.rawValue)\" accept-charset=\"utf-8\">"
        content += "\n<input type=\"hidden\" name=\"ticket\" value=\"\(HTML.escape(ticket))\">"
        if fields.contains(.name) {
            content += "\n<label for=\"name\">\(HTML.escape(words.visitorName))</label>\n<input id=\"name\" name=\"name\" type=\"text\" autocomplete=\"name\" maxlength=\"\(Visitor.maximumNameLength)\" required>"
        }
        if fields.contains(.phone) {
            content += "\n<label for=\"phone\">\(HTML.escape(words.visitorPhone))</label>\n<input id=\"phone\" name=\"phone\" type=\"tel\" autocomplete=\"tel\" maxlength=\"24\" required>"
        }
        content += "\n<button type=\"submit\">\(HTML.escape(words.checkInButton))</button>\n</form>"
        return document(Page(title: words.visitorTitle, kind: "form visitor", content: content, switchTarget: nil))
    }

    /// 429: too many wrong safe numbers from this client.
    func tooMany(retryAfter seconds: Int64) -> String {
        let content = """
            <p class="status refused"><span class="mark" aria-hidden="true">✕</span> \(HTML.escape(words.tooManyTitle))</p>
            <p class="advice">\(HTML.escape(words.tryAgain(inSeconds: seconds)))</p>
            """
        return document(Page(title: words.tooManyTitle, kind: "refusal too-many", content: content, switchTarget: nil))
    }

    /// 503: the ledger failed; nothing was recorded. The time is for the staff.
    func unavailable(now: WallTime) -> String {
        let at = LocalTime(now, in: zone)
        let content = """
            <p class="status refused"><span class="mark" aria-hidden="true">!</span> \(HTML.escape(words.unavailableTitle))</p>
            <p class="advice">\(HTML.escape(words.unavailable(at: at.date + " " + at.second)))</p>
            """
        return document(Page(title: words.unavailableTitle, kind: "refusal unavailable", content: content, switchTarget: nil))
    }

    /// A page with a title and one line: not found, bad request, method not allowed…
    func message(_ title: String, _ advice: String) -> String {
        let content = """
            <p class="status refused"><span class="mark" aria-hidden="true">✕</span> \(HTML.escape(title))</p>
            <p class="advice">\(HTML.escape(advice))</p>
            """
        return document(Page(title: title, kind: "refusal", content: content, switchTarget: nil))
    }
}
