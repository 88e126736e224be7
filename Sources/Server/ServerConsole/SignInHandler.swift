import ServerDomain
import ServerHTTPTypes
import ServerSecondFactor
import ServerWeb
import SharedDomain

/// `/admin/login` and `/admin/logout`: the sign-in form, the sign-in (throttled, a new session
/// id each time) and the sign-out (the session ends in the ledger, on every server), each an
/// action with its audit entry (`ConsoleSignIn`).
struct SignInHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        if request.current != nil { return request.redirect(request.link(ConsolePage.dashboard.path)) }
        // `admin-auth = proxy` alone: no password form, and no password is checked.
        guard parts.signIn.password else { return form(request, status: request.http.method == "POST" ? 403 : 200, error: nil) }
        guard request.http.method == "POST" else { return form(request, status: 200, error: nil) }
        // The form's token is the one this browser's cookie holds (double submit): another
        // site's page cannot read the cookie to copy it into its own form.
        guard let token = request.http.form[ConsoleSite.formField], let expected = request.http.cookies[ConsoleSite.loginCookie],
              !expected.isEmpty, parts.crypto.same(token, expected) else {
            return form(request, status: 403, error: request.words.formStale)
        }
        let name = request.http.form["user"] ?? ""
        let password = request.http.form["password"] ?? ""
        let network = request.http.clientKey
        let wait = parts.throttle.wait(account: name, network: network, now: request.now.milliseconds)
        if wait > 0 {
            let seconds = (wait + 999) / 1000
            return form(request, status: 429, error: request.words.throttled(seconds), extra: [("Retry-After", String(seconds))])
        }
        let account: ConsoleAccount?
        do throws(LedgerError) {
            account = ConsoleAccount.isValidName(name) ? try await parts.accounts.account(named: name) : nil
        } catch {
            return request.unavailable()
        }
        // An unknown name is checked against a decoy hash: it takes as long as a known one.
        guard let matches = await parts.throttle.gate({
            await parts.crypto.verifyPassword(password, account != nil ? account!.passwordHash : await parts.decoyHash())
        }) else {
            return form(request, status: 503, error: request.words.busy, extra: [("Retry-After", "1")])
        }
        guard let account, matches, !account.disabled else {
            parts.throttle.failed(account: name, network: network, now: request.now.milliseconds)
            let reason = account == nil ? "unknown account" : account!.disabled ? "disabled account" : "wrong password"
            // The name only when it is an account's: a password typed into the name field stays out of the log.
            _ = try? await signIn(request, as: account?.name ?? "-").failed(reason: reason, at: request.now)
            return form(request, status: 401, error: request.words.signInFailed)
        }
        var holder = account
        if parts.crypto.needsRehash(account.passwordHash), let rehashed = await parts.crypto.hashPassword(password),
           (try? await parts.accounts.changeAccount(named: account.name, AccountChange(passwordHash: rehashed))) == true {
            holder.passwordHash = rehashed
        }
        // With a second factor the password opens no session, only the step that asks for a
        // code (`/admin/verify`), or for a role `require-totp` names, the enrolment. The
        // throttle is not reset by the password alone: the codes spend the same budgets.
        if holder.secondFactor != nil || (parts.requireSecondFactor.contains(holder.role) && holder.signIn == .password) {
            guard let factor = parts.secondFactor else { return request.unavailable() }
            let pending: PendingSignIn
            if holder.secondFactor != nil {
                pending = PendingSignIn(step: .code, account: holder.name, issued: request.now, sealedSecret: "")
            } else {
                let secret = TOTPSecret.generate(random: factor.random)
                pending = PendingSignIn(step: .enrol, account: holder.name, issued: request.now,
                                        sealedSecret: factor.sealer.seal(secret, account: holder.name).hex)
            }
            return request.redirect(request.link(ConsolePage.verify.path), extra: [
                ConsoleSite.cookie(PendingSignIn.cookie, pending.token(for: holder, secondFactor: factor), secure: request.http.secure),
            ])
        }
        parts.throttle.succeeded(account: account.name, network: network, now: request.now.milliseconds)
        let (session, cookie) = parts.sessions.make(for: account)
        do throws(LedgerError) {
            try await signIn(request, as: account.name).signIn(session, role: account.role)
        } catch {
            return request.unavailable()
        }
        return request.redirect(request.link(ConsolePage.dashboard.path), extra: [
            ConsoleSite.cookie(ConsoleSessions.cookie, cookie, secure: request.http.secure),
            ConsoleSite.cookie(ConsoleSite.loginCookie, nil, secure: request.http.secure),
        ])
    }

    func signOut(_ request: ConsoleRequest) async -> HTTPResponse {
        do throws(LedgerError) {
            try await signIn(request, as: request.actor).signOut(idHash: parts.sessions.idHash(cookie: request.http.cookies[ConsoleSessions.cookie]),
                                                                  at: request.now)
        } catch {
            return request.unavailable()
        }
        // Through the proxy, the sign-in page after a sign-out does not sign in again at once.
        let after = request.link(ConsolePage.login.path, parts.signIn.proxy == nil ? "" : "out=1")
        return request.redirect(after, extra: [ConsoleSite.cookie(ConsoleSessions.cookie, nil, secure: request.http.secure)])
    }

    /// The sign-in action of `name` (an account's, or `-`) from the request's address.
    private func signIn(_ request: ConsoleRequest, as name: String) -> ConsoleSignIn {
        ConsoleSignIn(trail: AuditTrail(ledger: parts.transactions, actor: Operator(name: name, source: request.source), clock: parts.clock))
    }

    /// The form, with a fresh token in the hidden input and in its cookie.
    private func form(_ request: ConsoleRequest, status: Int, error: String?, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        let words = request.words
        let token = parts.crypto.randomHex(16)
        let user = request.http.form["user"] ?? ""
        let alert: HTML = error.map { error -> HTML in "<p class=\"error\" role=\"alert\">\(error)</p>" } ?? ""
        // Through the proxy: say so, with a link that signs in (the dashboard, through the proxy).
        let proxy: HTML = parts.signIn.proxy == nil ? "" : """
            <p>\(words.signInThroughOrganisation)</p>
            <p><a href="\(request.link(ConsolePage.dashboard.path))">\(words.signInAgainThroughOrganisation)</a></p>
            """
        guard parts.signIn.password else {
            return request.page(status, words.signIn, "<h1>\(words.console)</h1>" + proxy, extra: extra)
        }
        let content: HTML = """
            <h1>\(words.console)</h1>
            \(alert)
            \(proxy)
            <form method="post" action="\(request.link(ConsolePage.login.path))">
            <input type="hidden" name="\(ConsoleSite.formField)" value="\(token)">
            <label for="user">\(words.user)</label>
            <input id="user" name="user" autocomplete="username" autocapitalize="none" spellcheck="false" required value="\(user)">
            <label for="password">\(words.password)</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required>
            <button type="submit">\(words.signIn)</button>
            </form>
            """
        return request.page(status, words.signIn, content, extra: extra + [ConsoleSite.cookie(ConsoleSite.loginCookie, token, secure: request.http.secure)])
    }
}
