import ServerDomain
import ServerReports
import ServerWeb
import SharedDomain

/// The pages' contents, one function per page, in one language, each in the `Page` scaffold
/// (the card with the venue's band, an icon and one `<h1>`, the language switch). Each is `HTML`,
/// so every value from outside (venue names, ids, tokens) is escaped as it is interpolated.
struct Pages {
    let words: ServerWords
    /// The base path (`/C`).
    let base: String
    let zone: any LocalTimeZone
    /// Freshness, privacy notice, brands.
    var look: SiteLook = .standard
    /// Where the language switch leads: this page again by GET (nil: no switch).
    var here: String? = nil

    var assets: String { base + "/_" }

    private func document(_ page: Page) -> HTML { page.render(words: words, assets: assets) }

    /// The band of `venue` named `name`: its logo's address when it has one.
    func banner(_ venue: VenueID, name: String) -> PageVenue {
        PageVenue(name: name, id: venue.rawValue, logo: look.brand(of: venue).logo == nil ? nil : "\(assets)/logo.\(venue.rawValue)")
    }

    /// A page in the card scaffold: `heading` (the `<h1>`) with `icon` in `tone`, then `content`.
    /// Pages other than these (check-out, full, …) are made with it too.
    func card(title: String, heading: String? = nil, kind: String, tone: Page.Tone, icon: PageIcon, venue: PageVenue?, content: HTML,
              switchTarget: String?? = .none) -> HTML {
        document(Page(title: title, kind: kind, content: content, switchTarget: switchTarget ?? here, venue: venue, tone: tone, icon: icon,
                      heading: heading))
    }

    /// The receipt: venue, local time of the check-in, and a live clock with a moving sweep
    /// while it is fresh (`receiptFreshnessSeconds` since the check-in, or since the scan that
    /// found it again: `seen`); then aged: neutral, still, and it says how long ago. While the
    /// visit is open, a form whose button checks out (`formToken`: its CSRF token); an ended
    /// visit's receipt is the checked-out page.
    func receipt(_ checkIn: CheckIn, venueName: String, again: Bool, now: WallTime, path: String, seen: WallTime? = nil,
                 formToken: String? = nil) -> HTML {
        if checkIn.exit != nil { return checkedOut(checkIn, venueName: venueName, again: true, now: now) }
        let at = LocalTime(checkIn.time, in: zone)
        let current = LocalTime(now, in: zone)
        let freshness = ReceiptFreshness(checkedIn: checkIn.time, seen: seen, now: now, freshSeconds: look.receiptFreshnessSeconds)
        let liveStatus = again ? words.alreadyCheckedIn(at: at.minute) : words.checkedIn
        let status = freshness.isFresh ? liveStatus : words.checkedIn(ago: freshness.ageSeconds)
        // What the script shows if the page is still open when the receipt ages.
        let agedAttributes: HTML = freshness.isFresh
            ? " data-fresh-for=\"\(freshness.freshForSeconds)\" data-aged-heading=\"\(words.checkedIn(ago: look.receiptFreshnessSeconds))\""
                + " data-aged-note=\"\(words.agedNote)\""
            : ""
        let content: HTML = """
            <dl class="facts">
            <div><dt>\(words.time)</dt><dd><time class="checked" datetime="\(at.iso8601)">\(at.date) \(at.minute)</time> \(zoneLabel(at))</dd></div>
            </dl>
            <div class="live" id="live"\(agedAttributes)>
            <p class="live-label">\(words.now)</p>
            <time id="clock" data-offset="\(current.offsetSeconds)" datetime="\(current.iso8601)">\(current.second)</time>
            <span class="sweep" aria-hidden="true"></span>
            </div>
            <p class="note" id="receipt-note">\(freshness.isFresh ? words.showStaff : words.agedNote)</p>
            \(formToken.map { checkOutForm(path: path, formToken: $0) } ?? "")
            """
        let kind = "receipt" + (again ? " again" : "") + (freshness.isFresh ? " fresh" : " aged")
        return card(title: "\(status) · \(venueName)", heading: status, kind: kind, tone: freshness.isFresh ? .admitted : .aged,
                    icon: freshness.isFresh ? (again ? .again : .admitted) : .aged, venue: banner(checkIn.venue, name: venueName),
                    content: content, switchTarget: path)
    }

    /// The zone a time is in, after it: `UTC+09:00` (the `time-zone` setting, else the host's).
    /// A receipt shown abroad, or a server in another zone than the venue, says which clock.
    private func zoneLabel(_ time: LocalTime) -> HTML {
        "<span class=\"zone\">UTC\(time.offsetSeconds == 0 ? "" : time.offset)</span>"
    }

    /// The receipt's check-out form: a POST to the receipt's own address.
    private func checkOutForm(path: String, formToken: String) -> HTML {
        let action = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        return """
            <form method="post" action="\(action)?lang=\(words.language.rawValue)" class="checkout" accept-charset="utf-8">
            <input type="hidden" name="\(FormTokens.field)" value="\(formToken)">
            <p class="hint">\(words.checkOutHint)</p>
            <button type="submit" name="action" value="check-out">\(words.checkOutButton)</button>
            </form>
            """
    }

    /// The checked-out page: when the visit ended and how long it lasted (an automatic end is
    /// said to be one, never shown as a time of leaving). Neutral and still, with the leaving
    /// icon: nothing like a live receipt.
    func checkedOut(_ visit: CheckIn, venueName: String, again: Bool, now: WallTime) -> HTML {
        let entered = LocalTime(visit.time, in: zone)
        let exit = visit.exit ?? VisitExit(time: now, kind: .staff)
        let left = LocalTime(exit.time, in: zone)
        let status = again ? words.alreadyCheckedOut(at: left.minute) : words.checkedOut(at: left.minute)
        let minutes = visit.stayMilliseconds(now: now) / 60_000
        var content: HTML = """
            <p class="stay">\(words.stayed(minutes: minutes))</p>
            <dl class="facts">
            <div><dt>\(words.entered)</dt><dd><time datetime="\(entered.iso8601)">\(entered.date) \(entered.minute)</time> \(zoneLabel(entered))</dd></div>
            <div><dt>\(words.left)</dt><dd><time datetime="\(left.iso8601)">\(left.date) \(left.minute)</time> \(zoneLabel(left))</dd></div>
            </dl>
            """
        if exit.kind == .automatic { content += "\n<p class=\"note\">\(words.exitEndedAutomatically)</p>" }
        return card(title: "\(status) · \(venueName)", heading: status, kind: "checked-out", tone: .aged, icon: .leaving,
                    venue: banner(visit.venue, name: venueName), content: content, switchTarget: nil)
    }

    /// The full page: how many are inside of how many, and to wait.
    func full(venue: VenueID, venueName: String, inside: Int, capacity: Int) -> HTML {
        let title = words.full(inside: inside, capacity: capacity)
        let content: HTML = """
            <p class="advice">\(words.fullAdvice)</p>
            <p class="help">\(words.askStaff)</p>
            """
        return card(title: title, kind: "refusal full", tone: .wait, icon: .full, venue: banner(venue, name: venueName), content: content,
                    switchTarget: nil)
    }

    /// A refusal: what happened, and the next step: scan again (said), type the safe number
    /// (a link, when the venue is known and served), ask the staff.
    /// `retryAfter`: seconds until trying again makes sense, counted down on the page.
    func refusal(_ reason: RefusalReason, venue: VenueID?, venueName: String? = nil, retryAfter: Int64? = nil) -> HTML {
        let (title, advice) = words.refusal(reason)
        var content: HTML = "<p class=\"advice\">\(advice)</p>"
        if let retryAfter { content += "\n" + countdown(retryAfter) }
        if let venue, reason != .unknownVenue {
            content += "\n" + formButton(venue)
        }
        content += "\n<p class=\"help\">\(words.askStaff)</p>"
        let tone: Page.Tone = reason == .notYetValid || reason == .tooManyNewDevices ? .wait : .refused
        let band = reason == .unknownVenue ? nil : venue.map { self.banner($0, name: venueName ?? $0.rawValue) }
        return card(title: title, kind: "refusal \(reason.rawValue)", tone: tone, icon: tone == .wait ? .wait : .refused,
                    venue: band, content: content)
    }

    /// The link to `venue`'s safe-number form, as a button.
    private func formButton(_ venue: VenueID) -> HTML {
        "<p class=\"actions\"><a class=\"button\" href=\"\(base + "/" + venue.rawValue)?lang=\(words.language.rawValue)\">"
            + "\(words.typeSafeNumber)</a></p>"
    }

    /// The safe-number form, with a message after a wrong try.
    func safeNumberForm(venue: VenueID, venueName: String, message: String?, formToken: String) -> HTML {
        let action = base + "/" + venue.rawValue + "?lang=\(words.language.rawValue)"
        var content: HTML = ""
        if let message { content += "<p class=\"error\" role=\"alert\">\(message)</p>\n" }
        content += """
            <form method="post" action="\(action)" accept-charset="utf-8">
            <input type="hidden" name="\(FormTokens.field)" value="\(formToken)">
            <label for="safe-number">\(words.safeNumber)</label>
            <input id="safe-number" name="safe-number" type="text" inputmode="text" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="16" required aria-describedby="safe-number-hint">
            <p class="hint" id="safe-number-hint">\(words.formHint)</p>
            <button type="submit">\(words.checkInButton)</button>
            </form>
            <p class="help">\(words.askStaff)</p>
            """
        return card(title: words.formTitle, kind: "form", tone: message == nil ? .info : .refused, icon: .form,
                    venue: banner(venue, name: venueName), content: content, switchTarget: base + "/" + venue.rawValue)
    }

    /// The visitor-log form: the fields the venue asks for, the pending scan in a signed ticket,
    /// and the privacy notice (who keeps the details, why, how long, the right to refuse, where
    /// to complain). Its language switch posts the ticket back (it must not sit in an address).
    func visitorForm(venue: VenueID, venueName: String, fields: VisitorFields, ticket: String, message: String?) -> HTML {
        let action = base + "/" + venue.rawValue + "/visitor"
        var content: HTML = "<p class=\"hint\">\(words.visitorHint)</p>"
        if let message { content += "\n<p class=\"error\" role=\"alert\">\(message)</p>" }
        content += "\n<form method=\"post\" action=\"\(action)?lang=\(words.language.rawValue)\" accept-charset=\"utf-8\">"
        content += "\n<input type=\"hidden\" name=\"ticket\" value=\"\(ticket)\">"
        if fields.contains(.name) {
            content += "\n<label for=\"name\">\(words.visitorName)</label>\n<input id=\"name\" name=\"name\" type=\"text\" autocomplete=\"name\" maxlength=\"\(Visitor.maximumNameLength)\" required>"
        }
        if fields.contains(.phone) {
            content += "\n<label for=\"phone\">\(words.visitorPhone)</label>\n<input id=\"phone\" name=\"phone\" type=\"tel\" autocomplete=\"tel\" maxlength=\"24\" required>"
        }
        content += "\n" + privacyNotice(venueName: venueName, fields: fields)
        content += "\n<button type=\"submit\">\(words.privacyAgree)</button>\n</form>"
        content += "\n<p class=\"help\">\(words.askStaff)</p>"
        let (label, target) = words.languageSwitch
        let switchForm: HTML = "<form method=\"post\" action=\"\(action)?lang=\(target.rawValue)\" accept-charset=\"utf-8\">"
            + "<input type=\"hidden\" name=\"ticket\" value=\"\(ticket)\">"
            + "<button class=\"link\" type=\"submit\" name=\"switch\" value=\"1\" lang=\"\(target.rawValue)\">\(Page.globe)\(label)</button></form>"
        return document(Page(title: words.visitorTitle, kind: "form visitor", content: content, switchTarget: nil,
                             venue: banner(venue, name: venueName), tone: message == nil ? .info : .refused, icon: .form, switchHTML: switchForm))
    }

    /// The visitor form's privacy notice.
    private func privacyNotice(venueName: String, fields: VisitorFields) -> HTML {
        let controller = look.controller ?? venueName
        let rows = [
            (words.privacyController, controller),
            (words.privacyPurpose, words.privacyPurposeText),
            (words.privacyItems, words.privacyItemsText(fields)),
            (words.privacyRetention, words.privacyRetentionText(look.retentionSeconds)),
            (words.privacyRefuse, words.privacyRefuseText),
            (words.privacyComplain, words.privacyComplainText(controller: controller)),
        ]
        return "<section class=\"privacy\" aria-labelledby=\"privacy-title\">\n<h2 id=\"privacy-title\">\(words.privacyTitle)</h2>\n<dl>\n"
            + rows.map { row -> HTML in "<div><dt>\(row.0)</dt><dd>\(row.1)</dd></div>" }.joined(separator: "\n")
            + "\n</dl>\n</section>"
    }

    /// 429: too many wrong safe numbers from this client. Says the local time to try again
    /// after (true without a script) and, with the script, the seconds left as they count.
    func tooMany(retryAfter seconds: Int64, now: WallTime, venue: VenueID? = nil, venueName: String? = nil) -> HTML {
        let after = LocalTime(WallTime(milliseconds: now.milliseconds + seconds * 1000), in: zone)
        var content: HTML = """
            <p class="advice">\(words.tryAgain(after: after.second))</p>
            \(countdown(seconds))
            """
        if let venue { content += "\n" + formButton(venue) }
        content += "\n<p class=\"help\">\(words.askStaff)</p>"
        return card(title: words.tooManyTitle, kind: "refusal too-many", tone: .wait, icon: .wait,
                    venue: venue.map { banner($0, name: venueName ?? $0.rawValue) }, content: content)
    }

    /// The seconds left before trying again, shown and counted by the page's script (hidden
    /// without it: the advice above says when in words that stay true).
    private func countdown(_ seconds: Int64) -> HTML {
        let unit = words.language == .ko ? "초" : "s"
        return "<p class=\"countdown\" id=\"countdown\" data-seconds=\"\(seconds)\" data-unit=\"\(unit)\" data-done=\"\(words.tryNow)\" hidden>"
            + "\(words.timeLeft) <span class=\"seconds\">\(seconds)\(unit)</span></p>"
    }

    /// 503: the ledger failed; nothing was recorded. The time is for the staff.
    func unavailable(now: WallTime) -> HTML {
        let at = LocalTime(now, in: zone)
        let content: HTML = """
            <p class="advice">\(words.unavailable(at: at.date + " " + at.second))</p>
            <p class="help">\(words.askStaff)</p>
            """
        return card(title: words.unavailableTitle, kind: "refusal unavailable", tone: .wait, icon: .wait, venue: nil, content: content)
    }

    /// A page with a title and one line: not found, bad request, method not allowed…
    func message(_ title: String, _ advice: String) -> HTML {
        let content: HTML = """
            <p class="advice">\(advice)</p>
            <p class="help">\(words.askStaff)</p>
            """
        return card(title: title, kind: "refusal", tone: .refused, icon: .refused, venue: nil, content: content)
    }
}
