import ServerDomain
import ServerHTTPTypes
import ServerSecondFactor
import ServerWeb
import SharedDomain

/// `/admin/verify`: a password sign-in's second step, for the browser that holds its pending
/// sign-in (`PendingSignIn`): a code of the account's authenticator (± one 30-second step), or one
/// of its recovery codes; or, for a role that must have a second factor and has none
/// (`require-totp`), the enrolment (the QR code, the key, the code that confirms it, then the
/// recovery codes once). A code signs in once: its step is taken by compare-and-set in the
/// transaction that stores the session (`SecondFactorSignIn`), so the same code again, here or
/// on another server, is refused. Wrong codes are throttled as wrong passwords are (the same
/// budgets, `SignInThrottle`) and audited (`sign-in-failed`).
struct SecondStepHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        if request.current != nil { return request.redirect(request.link(ConsolePage.dashboard.path)) }
        let token = request.http.cookies[PendingSignIn.cookie]
        guard let factor = parts.secondFactor, let claimed = PendingSignIn.parse(token)?.pending else { return expired(request) }
        let holder: ConsoleAccount?
        do throws(LedgerError) {
            holder = try await parts.accounts.account(named: claimed.account)
        } catch {
            return request.unavailable()
        }
        guard let holder, let pending = PendingSignIn.verify(token, holder: holder, now: request.now, secondFactor: factor) else {
            return expired(request)
        }
        guard request.http.method == "POST" else { return page(request, pending, holder, factor, status: 200, error: nil) }
        // The form's token is the one this browser's cookie holds (double submit), as the
        // sign-in form's: another site's page cannot read it.
        guard let sent = request.http.form[ConsoleSite.formField], let expected = request.http.cookies[ConsoleSite.loginCookie],
              !expected.isEmpty, parts.crypto.same(sent, expected) else {
            return page(request, pending, holder, factor, status: 403, error: request.words.formStale)
        }
        let network = request.http.clientKey
        let wait = parts.throttle.wait(account: holder.name, network: network, now: request.now.milliseconds)
        if wait > 0 {
            let seconds = (wait + 999) / 1000
            return page(request, pending, holder, factor, status: 429, error: request.words.throttled(seconds), extra: [("Retry-After", String(seconds))])
        }
        let typed = request.http.form["code"] ?? ""
        switch pending.step {
        case .code: return await check(typed, request, pending, holder, factor)
        case .enrol: return await confirm(typed, request, pending, holder, factor)
        }
    }

    /// A code (or a recovery code) typed for an account that has a second factor.
    private func check(_ typed: String, _ request: ConsoleRequest, _ pending: PendingSignIn, _ holder: ConsoleAccount,
                       _ factor: ConsoleSecondFactor) async -> HTTPResponse {
        guard let state = holder.secondFactor else { return expired(request) }
        let opened: TOTPSecretSealer.Opened
        do throws(SecondFactorError) {
            opened = try factor.sealer.open(try SealedTOTPSecret(hex: state.sealedSecret), account: holder.name)
        } catch {
            return request.message(500, request.words.secondFactorUnreadable, request.words.secondFactorUnreadableAdvice)
        }
        let verification: TOTPVerification
        do throws(SecondFactorError) {
            verification = try TOTP(secret: opened.secret).verify(typed, at: request.now, lastAccepted: state.lastStep.map(TOTPStep.init(number:)))
        } catch {
            return request.message(500, request.words.secondFactorUnreadable, request.words.secondFactorUnreadableAdvice)
        }
        let (session, cookie) = parts.sessions.make(for: holder)
        let signIn = SecondFactorSignIn(trail: trail(request, holder.name))
        do throws(LedgerError) {
            switch verification {
            case .accepted(let step):
                // After a secret rotation the secret is sealed again under the new key.
                let resealed = opened.needsResealing ? factor.sealer.seal(opened.secret, account: holder.name).hex : nil
                guard try await signIn.withCode(step: step.number, resealed: resealed, session: session, role: holder.role) else {
                    return await failed(request, pending, holder, factor, reason: "replayed code")
                }
            case .replayed:
                return await failed(request, pending, holder, factor, reason: "replayed code")
            case .wrong:
                return await failed(request, pending, holder, factor, reason: "wrong code")
            case .malformed:
                // Not six digits: a recovery code, or nothing.
                guard RecoveryCode(typed: typed) != nil else {
                    return page(request, pending, holder, factor, status: 400, error: request.words.codeMalformed)
                }
                let hasher = factor.hasher
                let name = holder.name
                let left = try await signIn.withRecoveryCode(match: { stored in
                    hasher.match(typed, account: name, among: stored.compactMap(RecoveryCodeHash.init(hex:)))?.hex
                }, session: session, role: holder.role)
                guard left != nil else { return await failed(request, pending, holder, factor, reason: "wrong recovery code") }
            }
        } catch {
            return request.unavailable()
        }
        return signedIn(request, holder, cookie: cookie)
    }

    /// The code that confirms an enrolment the sign-in asked for (`require-totp`): the second
    /// factor turned on (`totp-enable`), the session begun, the recovery codes shown once.
    private func confirm(_ typed: String, _ request: ConsoleRequest, _ pending: PendingSignIn, _ holder: ConsoleAccount,
                         _ factor: ConsoleSecondFactor) async -> HTTPResponse {
        let enrolment: ConfirmedEnrolment
        switch ConfirmedEnrolment.confirm(typed, sealed: pending.sealedSecret, account: holder.name, at: request.now, factor: factor) {
        case .confirmed(let confirmed): enrolment = confirmed
        case .wrong: return await failed(request, pending, holder, factor, reason: "wrong code (enrolment)")
        case .malformed: return page(request, pending, holder, factor, status: 400, error: request.words.codeMalformed)
        case .unreadable: return expired(request)
        }
        var account = holder
        let (session, cookie) = parts.sessions.make(for: account)
        do throws(LedgerError) {
            let trail = trail(request, holder.name)
            guard try await enrolment.store(for: holder.name, SecondFactorChanges(trail: trail)) else { return expired(request) }
            account.secondFactor = SecondFactorState(sealedSecret: pending.sealedSecret, lastStep: enrolment.step, recoveryCodesLeft: enrolment.codes.count)
            _ = try await trail.change(at: session.created, { transaction throws(LedgerError) in try transaction.addSession(session) },
                                       note: { _ in AuditNote(.signIn, detail: "role \(holder.role.rawValue), code (enrolled)") })
        } catch {
            return request.unavailable()
        }
        parts.throttle.succeeded(account: holder.name, network: request.http.clientKey, now: request.now.milliseconds)
        let signed = ConsoleRequest(http: request.http, words: request.words, current: ConsoleSessions.Current(session: session, account: account),
                                    now: request.now, zone: request.zone)
        return signed.page(200, request.words.recoveryCodesTitle,
                           EnrolmentMarkup.recoveryCodes(signed, enrolment.codes, next: request.link(ConsolePage.dashboard.path)),
                           extra: Self.finished(request, cookie: cookie))
    }

    /// Signed in: on to the dashboard with the session's cookie, the pending one gone.
    private func signedIn(_ request: ConsoleRequest, _ holder: ConsoleAccount, cookie: String) -> HTTPResponse {
        parts.throttle.succeeded(account: holder.name, network: request.http.clientKey, now: request.now.milliseconds)
        return request.redirect(request.link(ConsolePage.dashboard.path), extra: Self.finished(request, cookie: cookie))
    }

    /// The cookies of a finished sign-in: the session's, and the pending and form ones deleted.
    static func finished(_ request: ConsoleRequest, cookie: String) -> [(name: String, value: String)] {
        [
            ConsoleSite.cookie(ConsoleSessions.cookie, cookie, secure: request.http.secure),
            ConsoleSite.cookie(PendingSignIn.cookie, nil, secure: request.http.secure),
            ConsoleSite.cookie(ConsoleSite.loginCookie, nil, secure: request.http.secure),
        ]
    }

    /// A wrong or replayed code: counted as a failed sign-in (the password's budgets), audited,
    /// the form again.
    private func failed(_ request: ConsoleRequest, _ pending: PendingSignIn, _ holder: ConsoleAccount, _ factor: ConsoleSecondFactor,
                        reason: String) async -> HTTPResponse {
        parts.throttle.failed(account: holder.name, network: request.http.clientKey, now: request.now.milliseconds)
        _ = try? await trail(request, holder.name).record(AuditNote(.signInFailed, detail: reason), at: request.now)
        return page(request, pending, holder, factor, status: 401, error: request.words.codeWrong)
    }

    /// No pending sign-in (none, expired, or its account changed): sign in again.
    private func expired(_ request: ConsoleRequest) -> HTTPResponse {
        let words = request.words
        let content: HTML = """
            <h1>\(words.pendingExpiredTitle)</h1>
            <p class="advice">\(words.pendingExpired)</p>
            <p><a class="button" href="\(request.link(ConsolePage.login.path))">\(words.signIn)</a></p>
            """
        return request.page(401, words.pendingExpiredTitle, content,
                            extra: [ConsoleSite.cookie(PendingSignIn.cookie, nil, secure: request.http.secure)])
    }

    /// The step's page: the code form, or the enrolment; a fresh form token in it and its cookie.
    private func page(_ request: ConsoleRequest, _ pending: PendingSignIn, _ holder: ConsoleAccount, _ factor: ConsoleSecondFactor,
                      status: Int, error: String?, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        let words = request.words
        let token = parts.crypto.randomHex(16)
        let hidden: HTML = "<input type=\"hidden\" name=\"\(ConsoleSite.formField)\" value=\"\(token)\">"
        let action = request.link(ConsolePage.verify.path)
        let content: HTML
        switch pending.step {
        case .code:
            let alert: HTML = error.map { error -> HTML in "<p class=\"error\" role=\"alert\">\(error)</p>" } ?? ""
            content = """
                <h1>\(words.secondStepTitle)</h1>
                <p>\(words.secondStepHint(holder.name))</p>
                \(alert)
                <form method="post" action="\(action)">\(hidden)
                <label for="code">\(words.codeLabel)</label>
                <input id="code" name="code" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required autofocus>
                <button type="submit">\(words.signIn)</button>
                </form>
                <p class="note">\(words.recoveryCodeHint)</p>
                """
        case .enrol:
            guard let sealed = try? SealedTOTPSecret(hex: pending.sealedSecret),
                  let opened = try? factor.sealer.open(sealed, account: holder.name),
                  let uri = try? OTPAuthURI(issuer: factor.issuer, account: holder.name, secret: opened.secret) else { return expired(request) }
            content = "<h1>\(words.enrolTitle)</h1><p class=\"advice\">\(words.enrolRequired(words.role(holder.role)))</p>"
                + EnrolmentMarkup.enrolment(request, uri: uri, secret: opened.secret, qr: factor.qr, action: action, hidden: hidden, error: error)
        }
        return request.page(status, words.secondStepTitle, content,
                            extra: extra + [ConsoleSite.cookie(ConsoleSite.loginCookie, token, secure: request.http.secure)])
    }

    /// The account's own trail, from the request's address.
    private func trail(_ request: ConsoleRequest, _ name: String) -> AuditTrail {
        AuditTrail(ledger: parts.transactions, actor: Operator(name: name, source: request.source), clock: parts.clock)
    }
}
