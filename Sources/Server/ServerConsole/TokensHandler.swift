import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/tokens` (admins): the API's tokens, a form to add one and a button to remove each:
/// what `qrcheckin-server token` does, audited the same way (`TokenChanges`). A new token is
/// shown once, on the answer to the form that made it (200, never cached: the security
/// headers' `no-store`); the ledger keeps its hash only.
struct TokensHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        guard request.http.method == "POST" else { return await page(request, status: 200, notice: nil) }
        let words = request.words
        guard let name = request.form("name"), APIToken.isValidName(name) else { return await page(request, status: 400, notice: words.badToken) }
        let changes = TokenChanges(trail: request.trail(parts))
        switch request.http.form["action"] ?? "" {
        case "add":
            guard let scope = request.http.form["scope"].flatMap(APIScope.init(rawValue:)) else { return await page(request, status: 400, notice: words.badToken) }
            var venues: [VenueID] = []
            for text in (request.http.form["venues"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " }) {
                guard let venue = try? VenueID(String(text)) else { return await page(request, status: 400, notice: words.badToken) }
                venues.append(venue)
            }
            let secret = APITokenSecret(random: parts.crypto.random(APITokenSecret.byteCount))
            let token = APIToken(name: name, scope: scope, venues: venues, secretHash: secret.hash(parts.crypto.digest),
                                 created: request.now, createdBy: request.actor)
            do throws(LedgerError) {
                guard try await changes.add(token) else { return await page(request, status: 409, notice: words.tokenExists) }
            } catch {
                return request.unavailable()
            }
            return await page(request, status: 200, notice: nil, made: (name, secret))
        case "remove":
            do throws(LedgerError) {
                guard try await changes.remove(named: name) else { return await page(request, status: 404, notice: words.notFound) }
            } catch {
                return request.unavailable()
            }
            return request.redirect(request.link(ConsolePage.tokens.path, "done=1"))
        default:
            return await page(request, status: 400, notice: words.badToken)
        }
    }

    private func page(_ request: ConsoleRequest, status: Int, notice: String?, made: (name: String, secret: APITokenSecret)? = nil) async -> HTTPResponse {
        let words = request.words
        let tokens: [APIToken]
        do throws(LedgerError) {
            tokens = try await parts.tokens.tokens()
        } catch {
            return request.unavailable()
        }
        let action = request.link(ConsolePage.tokens.path)
        let rows = tokens.map { token -> HTML in
            let venues = token.venues.isEmpty ? words.everyVenue : token.venues.map(\.rawValue).joined(separator: ", ")
            let remove: HTML = "<form method=\"post\" action=\"\(action)\" class=\"inline\">\(request.hiddenToken)"
                + "<input type=\"hidden\" name=\"name\" value=\"\(token.name)\"><input type=\"hidden\" name=\"action\" value=\"remove\">"
                + "<button type=\"submit\">\(words.remove)</button></form>"
            return "<tr><th scope=\"row\">\(token.name)</th><td>\(words.scope(token.scope))</td><td>\(venues)</td>"
                + "<td>\(request.local(token.created))</td><td>\(token.createdBy)</td><td>\(remove)</td></tr>"
        }.joined()
        let scopes = APIScope.allCases.map { scope -> HTML in "<option value=\"\(scope.rawValue)\">\(words.scope(scope))</option>" }.joined()
        let saved: HTML = request.query("done") != nil ? "<p class=\"ok\" role=\"status\">\(words.done)</p>" : ""
        let alert: HTML = notice.map { notice -> HTML in "<p class=\"error\" role=\"alert\">\(notice)</p>" } ?? ""
        let shown: HTML = made.map { made -> HTML in
            "<div class=\"ok\" role=\"status\"><p>\(words.tokenShownOnce)</p><p><label for=\"new-token\">\(words.token) (\(made.name))</label>"
                + "<textarea id=\"new-token\" readonly rows=\"3\" spellcheck=\"false\" autocomplete=\"off\">\(made.secret.text)</textarea></p></div>"
        } ?? ""
        let content: HTML = """
            <h1>\(words.tokens)</h1>
            \(saved)\(alert)\(shown)
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.tokens)"><table><thead><tr><th scope="col">\(words.token)</th><th scope="col">\(words.scope)</th>
            <th scope="col">\(words.venue)</th><th scope="col">\(words.created)</th><th scope="col">\(words.createdBy)</th><th scope="col">\(words.changes)</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            <h2>\(words.addToken)</h2>
            <form method="post" action="\(action)">\(request.hiddenToken)<input type="hidden" name="action" value="add">
            <label for="token-name">\(words.token)</label><input id="token-name" name="name" autocomplete="off" autocapitalize="none" required>
            <label for="token-scope">\(words.scope)</label><select id="token-scope" name="scope">\(scopes)</select>
            <label for="token-venues">\(words.tokenVenues)</label><input id="token-venues" name="venues" autocomplete="off" autocapitalize="characters" spellcheck="false">
            <button type="submit">\(words.add)</button></form>
            """
        return request.page(status, words.tokens, content)
    }
}
