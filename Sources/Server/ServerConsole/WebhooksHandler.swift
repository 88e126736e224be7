import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/webhooks` (admins): the endpoints with their state (a 410's disabling said as such),
/// the outbox's counts, the newest attempts, and forms to add one (its secret shown once),
/// disable, enable, rotate its secret, send a test, redeliver the failed and remove: what
/// `qrcheckin-server webhook` does, audited the same way (`WebhookChanges`).
struct WebhooksHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        guard let webhooks = parts.webhooks, let newSecret = parts.newWebhookSecret else {
            // A ledger without webhooks (the tests' in-memory one): the page says so; nothing to change.
            guard request.http.method != "POST" else { return request.message(404, words.webhooksUnavailable) }
            return request.page(200, words.webhooks, "<h1>\(words.webhooks)</h1><p>\(words.webhooksUnavailable)</p>")
        }
        guard request.http.method == "POST" else { return await page(request, webhooks, status: 200, notice: nil, secret: nil) }
        guard let name = request.form("name"), WebhookEndpoint.isValidName(name) else {
            return await page(request, webhooks, status: 400, notice: words.badWebhook, secret: nil)
        }
        let changes = WebhookChanges(trail: request.trail(parts))
        do throws(LedgerError) {
            let done: Bool
            switch request.form("action") ?? "" {
            case "add":
                let events = Set(WebhookEventType.allCases.filter { $0 != .test && request.form("event-\($0.rawValue)") != nil })
                let venueWords = (request.form("venues") ?? "").split(separator: ",").map { String($0).filter { $0 != " " } }.filter { !$0.isEmpty }
                let venues = venueWords.compactMap { try? VenueID($0.uppercased()) }
                guard let url = request.form("url"), WebhookEndpoint.isValidURL(url), !events.isEmpty, venues.count == venueWords.count else {
                    return await page(request, webhooks, status: 400, notice: words.badWebhook, secret: nil)
                }
                let secret = newSecret()
                let endpoint = WebhookEndpoint(name: name, url: url, secret: secret, events: events, venues: venues,
                                               personal: request.form("personal") != nil, created: request.now)
                guard try await changes.add(endpoint) else { return await page(request, webhooks, status: 409, notice: words.webhookExists, secret: nil) }
                // The secret is shown on this answer only (never a redirect's next page).
                return await page(request, webhooks, status: 200, notice: nil, secret: (name, secret))
            case "rotate-secret":
                let secret = newSecret()
                guard try await changes.rotateSecret(named: name, secret) else { return await page(request, webhooks, status: 404, notice: words.notFound, secret: nil) }
                return await page(request, webhooks, status: 200, notice: nil, secret: (name, secret))
            case "disable", "enable":
                done = try await changes.setDisabled(named: name, request.form("action") == "disable")
            case "test":
                done = try await changes.test(named: name) != nil
            case "redeliver":
                done = try await changes.redeliver(named: name) != nil
            case "remove":
                done = try await changes.remove(named: name)
            default:
                return await page(request, webhooks, status: 400, notice: words.badWebhook, secret: nil)
            }
            guard done else { return await page(request, webhooks, status: 404, notice: words.notFound, secret: nil) }
        } catch {
            return request.unavailable()
        }
        return request.redirect(request.link(ConsolePage.webhooks.path, "done=1"))
    }

    private func page(_ request: ConsoleRequest, _ webhooks: any WebhookLedger, status: Int, notice: String?,
                      secret: (name: String, secret: WebhookSecret)?) async -> HTTPResponse {
        let words = request.words
        let endpoints: [WebhookEndpoint], counts: WebhookCounts, attempts: [WebhookAttempt]
        do throws(LedgerError) {
            endpoints = try await webhooks.webhookEndpoints()
            counts = try await webhooks.webhookCounts()
            attempts = try await webhooks.webhookAttempts(endpoint: nil, limit: 20)
        } catch {
            return request.unavailable()
        }
        let action = request.link(ConsolePage.webhooks.path)
        func button(_ name: String, _ verb: String, _ label: String) -> HTML {
            "<form method=\"post\" action=\"\(action)\" class=\"inline\">\(request.hiddenToken)<input type=\"hidden\" name=\"name\" value=\"\(name)\">"
                + "<input type=\"hidden\" name=\"action\" value=\"\(verb)\"><button type=\"submit\">\(label)</button></form>"
        }
        let rows = endpoints.map { endpoint -> HTML in
            let events = WebhookEventType.allCases.filter(endpoint.events.contains).map(words.eventName).joined(separator: ", ")
            let venues = endpoint.venues.isEmpty ? words.everyVenue : endpoint.venues.map(\.rawValue).joined(separator: ", ")
            let state: HTML = endpoint.disabled.map { disabling -> HTML in
                "<span class=\"error\">\(words.disabledBecause(disabling.reason))</span> · \(request.local(disabling.time))"
            } ?? "\(words.active)"
            let toggle = endpoint.disabled == nil ? button(endpoint.name, "disable", words.disable) : button(endpoint.name, "enable", words.enable)
            return "<tr><th scope=\"row\">\(endpoint.name)</th><td class=\"wrap\">\(endpoint.url)</td><td>\(events)</td><td>\(venues)</td>"
                + "<td>\(endpoint.personal ? words.personalData : "—")</td><td>\(state)</td>"
                + "<td>\(toggle) \(button(endpoint.name, "test", words.sendTest)) \(button(endpoint.name, "redeliver", words.redeliverFailed)) "
                + "\(button(endpoint.name, "rotate-secret", words.rotateSecret)) \(button(endpoint.name, "remove", words.remove))</td></tr>"
        }.joined()
        let log = attempts.map { attempt -> HTML in
            let answer = String(attempt.answer.prefix(120))
            return "<tr><td>\(request.local(attempt.time))</td><td>\(attempt.endpoint)</td><td>msg_\(String(attempt.event))</td>"
                + "<td>\(attempt.status.map { String($0) } ?? words.noAnswer)</td><td>\(String(attempt.milliseconds))</td><td class=\"wrap\">\(answer)</td></tr>"
        }.joined()
        let checkboxes = WebhookEventType.allCases.filter { $0 != .test }.map { type -> HTML in
            let checked: HTML = WebhookEventType.defaults.contains(type) ? " checked" : ""
            return "<label class=\"check\"><input type=\"checkbox\" name=\"event-\(type.rawValue)\"\(checked)> \(words.eventName(type))</label>"
        }.joined()
        let saved: HTML = request.query("done") != nil ? "<p class=\"ok\" role=\"status\">\(words.done)</p>" : ""
        let alert: HTML = notice.map { notice -> HTML in "<p class=\"error\" role=\"alert\">\(notice)</p>" } ?? ""
        let shown: HTML = secret.map { shown -> HTML in
            "<p class=\"ok\" role=\"status\">\(shown.name): \(words.secretOnce) <code>\(shown.secret.text)</code></p>"
        } ?? ""
        let table: HTML = endpoints.isEmpty ? "<p>\(words.noWebhooks)</p>" : """
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.webhooks)"><table><thead><tr><th scope="col">\(words.webhook)</th>
            <th scope="col">\(words.webhookURL)</th><th scope="col">\(words.webhookEvents)</th><th scope="col">\(words.webhookVenues)</th>
            <th scope="col">\(words.personalData)</th><th scope="col">\(words.state)</th><th scope="col">\(words.changes)</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
        let content: HTML = """
            <h1>\(words.webhooks)</h1>
            \(saved)\(alert)\(shown)
            \(table)
            <p>\(words.outbox): \(String(counts.pending)) \(words.pendingWord) · \(String(counts.delivered)) \(words.deliveredWord) · \(String(counts.failed)) \(words.failedWord)</p>
            <h2>\(words.recentDeliveries)</h2>
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.recentDeliveries)"><table><thead><tr><th scope="col">\(words.attemptTime)</th>
            <th scope="col">\(words.webhook)</th><th scope="col">\(words.eventWord)</th><th scope="col">\(words.statusWord)</th>
            <th scope="col">\(words.durationWord)</th><th scope="col">\(words.answerWord)</th></tr></thead><tbody>\(log)</tbody></table></div>
            <h2>\(words.addWebhook)</h2>
            <form method="post" action="\(action)">\(request.hiddenToken)<input type="hidden" name="action" value="add">
            <label for="hook-name">\(words.webhook)</label><input id="hook-name" name="name" autocomplete="off" autocapitalize="none" required maxlength="64">
            <label for="hook-url">\(words.webhookURL)</label><input id="hook-url" name="url" type="url" autocomplete="off" required placeholder="https://">
            <fieldset><legend>\(words.webhookEvents)</legend>\(checkboxes)</fieldset>
            <label for="hook-venues">\(words.webhookVenues)</label><input id="hook-venues" name="venues" autocomplete="off" aria-describedby="hook-venues-hint">
            <p id="hook-venues-hint" class="hint">\(words.webhookVenuesHint)</p>
            <label class="check"><input type="checkbox" name="personal" aria-describedby="hook-personal-hint"> \(words.personalData)</label>
            <p id="hook-personal-hint" class="hint">\(words.personalWarning)</p>
            <button type="submit">\(words.add)</button></form>
            """
        return request.page(status, words.webhooks, content)
    }
}
