import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/users`: the accounts, and forms to add one and to set a password, disable, enable
/// or remove one, or take its second factor away: what `qrcheckin-server user` does (and
/// `user totp disable`), audited the same way.
struct UsersHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        guard request.http.method == "POST" else { return await page(request, status: 200, notice: nil) }
        let words = request.words
        let form = request.http.form
        guard let name = request.form("name"), ConsoleAccount.isValidName(name) else { return await page(request, status: 400, notice: words.badAccount) }
        let action = form["action"] ?? ""
        do throws(LedgerError) {
            // Each change and its audit entry are one transaction (`AccountChanges`).
            let changes = AccountChanges(trail: request.trail(parts))
            let done: Bool
            switch action {
            case "add", "passwd":
                // An account the proxy signs in has no password and is given none.
                if action == "passwd", try await parts.accounts.account(named: name)?.signIn == .proxy {
                    return await page(request, status: 409, notice: words.proxyAccountHasNoPassword)
                }
                let password = form["password"] ?? ""
                guard password.count >= 8, password.utf8.count <= 1024, let hash = await parts.crypto.hashPassword(password) else {
                    return await page(request, status: 400, notice: words.badAccount)
                }
                if action == "add" {
                    guard let role = form["role"].flatMap(ConsoleRole.init(rawValue:)) else { return await page(request, status: 400, notice: words.badAccount) }
                    done = try await changes.add(ConsoleAccount(name: name, role: role, passwordHash: hash, created: request.now))
                    guard done else { return await page(request, status: 409, notice: words.exists) }
                } else {
                    done = try await changes.change(named: name, AccountChange(passwordHash: hash))
                }
            case "disable", "enable":
                done = try await changes.change(named: name, AccountChange(disabled: action == "disable"))
            case "remove":
                done = try await changes.remove(named: name)
            case "totp-disable":
                done = try await SecondFactorChanges(trail: request.trail(parts)).disable(account: name)
            default:
                return await page(request, status: 400, notice: words.badAccount)
            }
            guard done else { return await page(request, status: 404, notice: words.notFound) }
        } catch {
            return request.unavailable()
        }
        // After a change, the list again (303: a reload does not send the form twice).
        return request.redirect(request.link(ConsolePage.users.path, "done=1"))
    }

    private func page(_ request: ConsoleRequest, status: Int, notice: String?) async -> HTTPResponse {
        let words = request.words
        let accounts: [ConsoleAccount]
        do throws(LedgerError) {
            accounts = try await parts.accounts.accounts()
        } catch {
            return request.unavailable()
        }
        let action = request.link(ConsolePage.users.path)
        func button(_ name: String, _ verb: String, _ label: String, extra: HTML = "") -> HTML {
            "<form method=\"post\" action=\"\(action)\" class=\"inline\">\(request.hiddenToken)<input type=\"hidden\" name=\"name\" value=\"\(name)\">"
                + "<input type=\"hidden\" name=\"action\" value=\"\(verb)\">\(extra)<button type=\"submit\">\(label)</button></form>"
        }
        let rows = accounts.enumerated().map { index, account -> HTML in
            let toggle = account.disabled ? button(account.name, "enable", words.enable) : button(account.name, "disable", words.disable)
            let passwordID = "password-\(index)"
            let passwd: HTML = account.signIn == .proxy ? "" : button(account.name, "passwd", words.setPassword,
                                extra: "<label for=\"\(passwordID)\" class=\"hidden-label\">\(words.newPassword) (\(account.name))</label>"
                                    + "<input id=\"\(passwordID)\" name=\"password\" type=\"password\" autocomplete=\"new-password\" minlength=\"8\" required>")
            let factor: HTML = account.secondFactor == nil ? "" : " " + button(account.name, "totp-disable", words.secondFactorOff)
            let state = (account.disabled ? words.disabledWord : words.active) + (account.secondFactor == nil ? "" : " · " + words.secondFactorShort)
            return "<tr><th scope=\"row\">\(account.name)</th><td>\(words.role(account.role))</td>"
                + "<td>\(state)</td><td>\(request.local(account.created))</td>"
                + "<td>\(toggle) \(button(account.name, "remove", words.remove)) \(passwd)\(factor)</td></tr>"
        }.joined()
        let roles = ConsoleRole.allCases.map { role -> HTML in "<option value=\"\(role.rawValue)\">\(words.role(role))</option>" }.joined()
        let saved: HTML = request.query("done") != nil ? "<p class=\"ok\" role=\"status\">\(words.done)</p>" : ""
        let alert: HTML = notice.map { notice -> HTML in "<p class=\"error\" role=\"alert\">\(notice)</p>" } ?? ""
        let content: HTML = """
            <h1>\(words.users)</h1>
            \(saved)\(alert)
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.users)"><table><thead><tr><th scope="col">\(words.user)</th><th scope="col">\(words.role)</th>
            <th scope="col">\(words.state)</th><th scope="col">\(words.created)</th><th scope="col">\(words.changes)</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            <h2>\(words.addUser)</h2>
            <form method="post" action="\(action)">\(request.hiddenToken)<input type="hidden" name="action" value="add">
            <label for="new-name">\(words.user)</label><input id="new-name" name="name" autocomplete="off" autocapitalize="none" required>
            <label for="new-role">\(words.role)</label><select id="new-role" name="role">\(roles)</select>
            <label for="new-password">\(words.password)</label><input id="new-password" name="password" type="password" autocomplete="new-password" minlength="8" required>
            <button type="submit">\(words.add)</button></form>
            """
        return request.page(status, words.users, content)
    }
}
