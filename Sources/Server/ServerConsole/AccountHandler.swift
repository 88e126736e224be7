import ServerDomain
import ServerHTTPTypes
import ServerSecondFactor
import ServerWeb
import SharedDomain

/// `/admin/account`: the signed-in account's own page: how it signs in and its second factor.
/// A password account sets one up here (or replaces it): the QR code and the key of a new
/// secret, sealed in the form until a code of it comes back (so the app surely has it), then
/// the second factor turned on (`totp-enable`, as `qrcheckin-server user totp enable` does) and
/// the ten recovery codes shown once. An account the proxy signs in has neither password nor
/// second factor here: the organisation's sign-in has its own.
struct AccountHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        guard let current = request.current else { return request.redirect(request.link(ConsolePage.login.path)) }
        let account = current.account
        guard request.http.method == "POST" else { return page(request, account, status: 200, notice: nil) }
        guard account.signIn == .password, let factor = parts.secondFactor else { return page(request, account, status: 409, notice: nil) }
        switch request.http.form["action"] ?? "" {
        case "begin":
            do throws(SecondFactorError) {
                let enrolment = try factor.enrol(account.name)
                return enrolPage(request, account, factor, sealed: enrolment.sealedSecret.hex, status: 200, error: nil)
            } catch {
                return request.message(500, request.words.secondFactorUnreadable, error.description)
            }
        case "confirm":
            let sealed = request.http.form["sealed"] ?? ""
            switch ConfirmedEnrolment.confirm(request.http.form["code"] ?? "", sealed: sealed, account: account.name, at: request.now, factor: factor) {
            case .confirmed(let enrolment):
                do throws(LedgerError) {
                    guard try await enrolment.store(for: account.name, SecondFactorChanges(trail: request.trail(parts))) else {
                        return request.message(404, request.words.notFound)
                    }
                } catch {
                    return request.unavailable()
                }
                return request.page(200, request.words.recoveryCodesTitle,
                                    EnrolmentMarkup.recoveryCodes(request, enrolment.codes, next: request.link(ConsolePage.account.path)))
            case .wrong: return enrolPage(request, account, factor, sealed: sealed, status: 400, error: request.words.codeWrong)
            case .malformed: return enrolPage(request, account, factor, sealed: sealed, status: 400, error: request.words.codeMalformed)
            case .unreadable: return page(request, account, status: 400, notice: nil)
            }
        default:
            return page(request, account, status: 400, notice: nil)
        }
    }

    /// The enrolment of the secret `sealed` holds, its form confirming it here.
    private func enrolPage(_ request: ConsoleRequest, _ account: ConsoleAccount, _ factor: ConsoleSecondFactor, sealed: String, status: Int,
                           error: String?) -> HTTPResponse {
        let words = request.words
        guard let box = try? SealedTOTPSecret(hex: sealed), let opened = try? factor.sealer.open(box, account: account.name),
              let uri = try? OTPAuthURI(issuer: factor.issuer, account: account.name, secret: opened.secret) else {
            return page(request, account, status: 400, notice: nil)
        }
        let hidden: HTML = request.hiddenToken + "<input type=\"hidden\" name=\"action\" value=\"confirm\">"
            + "<input type=\"hidden\" name=\"sealed\" value=\"\(sealed)\">"
        let content: HTML = "<h1>\(words.enrolTitle)</h1>"
            + EnrolmentMarkup.enrolment(request, uri: uri, secret: opened.secret, qr: factor.qr, action: request.link(ConsolePage.account.path),
                                        hidden: hidden, error: error)
        return request.page(status, words.enrolTitle, content)
    }

    /// The account's page.
    private func page(_ request: ConsoleRequest, _ account: ConsoleAccount, status: Int, notice: String?) -> HTTPResponse {
        let words = request.words
        let factorText: HTML
        switch (account.signIn, account.secondFactor) {
        case (.proxy, _):
            factorText = "<p>\(words.signsInByProxy)</p>"
        case (.password, let state?):
            factorText = """
                <p class="ok">\(words.secondFactorOn)</p><p>\(words.recoveryCodesLeft(state.recoveryCodesLeft))</p>
                <form method="post" action="\(request.link(ConsolePage.account.path))">\(request.hiddenToken)
                <input type="hidden" name="action" value="begin"><button type="submit">\(words.enrolAgain)</button></form>
                """
        case (.password, nil):
            let required: HTML = parts.requireSecondFactor.contains(account.role)
                ? "<p class=\"advice\">\(words.enrolRequired(words.role(account.role)))</p>" : ""
            factorText = """
                <p>\(words.secondFactorNone)</p>\(required)
                <form method="post" action="\(request.link(ConsolePage.account.path))">\(request.hiddenToken)
                <input type="hidden" name="action" value="begin"><button type="submit">\(words.enrolStart)</button></form>
                """
        }
        let unavailable: HTML = parts.secondFactor == nil && account.signIn == .password ? "<p class=\"note\">\(words.secondFactorUnavailable)</p>" : ""
        let content: HTML = """
            <h1>\(words.accountTitle)</h1>
            <dl class="facts"><dt>\(words.user)</dt><dd>\(account.name)</dd><dt>\(words.role)</dt><dd>\(words.role(account.role))</dd>
            <dt>\(words.signInMethod)</dt><dd>\(words.signInMethod(account.signIn))</dd></dl>
            <h2>\(words.secondFactor)</h2>
            \(factorText)\(unavailable)
            """
        return request.page(status, words.accountTitle, content)
    }
}
