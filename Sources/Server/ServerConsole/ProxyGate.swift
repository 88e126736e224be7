import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// The venue's proxy at the console's door (`admin-auth = proxy`), on every request before the
/// access table. The proxy's headers reach here only from a trusted proxy (the HTTP adapter drops
/// them from anyone else, and `untrustedIdentity` says they came: counted, and audited at most
/// once a minute per address as a spoof attempt). With a user in them:
///
/// - no session: the user signs in (`ProxySignIn`: the account added on its first sign-in, its
///   role as its groups say at every sign-in), and the request goes on signed in, the new
///   session's cookie set on its answer; refused with a page that says why when its groups give
///   no role, when a password account has that name, or when the account is disabled;
/// - a session of that user with the role its groups give: goes on;
/// - a session of another account, or of this one while its groups now give another role: that
///   session ends and the user signs in anew (the role changes, audited).
///
/// Without a user, a session the proxy began ends (the proxy stopped vouching for it: signed out
/// there, or the request did not come through it); a password session (`admin-auth =
/// password,proxy`) goes on. After a sign-out, the sign-in page shows instead of signing in
/// again at once.
struct ProxyGate {
    let parts: ConsoleSite.Parts

    /// What the request does next.
    enum Outcome {
        /// Its handler runs with this session (if any), and its answer sets these cookies.
        case proceed(ConsoleSessions.Current?, cookies: [(name: String, value: String)])
        /// This is its answer (a refusal, or 503).
        case answer(HTTPResponse)
    }

    func check(_ request: ConsoleRequest, page: ConsolePage) -> Outcome {
        let http = request.http
        if http.untrustedIdentity, let count = parts.spoofs.note(http.clientKey, now: request.now.milliseconds) {
            // The log is told; a log that cannot take it changes nothing for this request.
            _ = try? trail(request, name: "-", source: "console").record(AuditNote(
                .proxySpoof, detail: "the proxy's sign-in headers from an address that is no trusted proxy: ignored", rows: count), at: request.now)
        }
        guard let proxy = parts.signIn.proxy else { return .proceed(request.current, cookies: []) }
        let name = http.headers[proxy.userHeader]?.trimmingSpaces
        let user = name?.isEmpty == false ? name : nil
        let groups = ProxySignInSettings.groups(http.headers[proxy.groupsHeader])
        let role = proxy.role(for: groups)
        var cookies: [(name: String, value: String)] = []
        if let current = request.current {
            let account = current.account
            let stays = account.signIn == .proxy ? user == account.name && role == account.role : user == nil || user == account.name
            if stays { return .proceed(current, cookies: []) }
            let reason = user == nil ? "the proxy names nobody" : user != account.name ? "the proxy names another user" : "the groups give another role"
            do throws(LedgerError) {
                try parts.accounts.removeSession(idHash: current.session.idHash)
                try trail(request, name: account.name, source: account.signIn == .proxy ? "proxy" : "console")
                    .record(AuditNote(.signOut, detail: reason), at: request.now)
            } catch {
                return .answer(request.unavailable())
            }
            cookies.append(ConsoleSite.cookie(ConsoleSessions.cookie, nil, secure: http.secure))
        }
        // After a sign-out, its page (the proxy still vouches; a click signs in again).
        guard let user, page != .logout, !(page == .login && http.query["out"] != nil) else { return .proceed(nil, cookies: cookies) }
        return signIn(user, role: role, groups: groups, request, cookies: cookies)
    }

    /// Signs `user` in as the proxy says, or refuses with a page that says why.
    private func signIn(_ user: String, role: ConsoleRole?, groups: [String], _ request: ConsoleRequest,
                        cookies: [(name: String, value: String)]) -> Outcome {
        let words = request.words
        guard ConsoleAccount.isValidName(user) else {
            return refuse(user: "-", reason: "the proxy's user is no account name", words.proxyBadName, request)
        }
        guard let role else {
            let named = groups.isEmpty ? "no groups" : "groups " + groups.prefix(20).joined(separator: ", ")
            return refuse(user: user, reason: "proxy: \(named) give no role", words.proxyNoRole(groups), request)
        }
        let existing: ConsoleAccount?
        do throws(LedgerError) {
            existing = try parts.accounts.account(named: user)
        } catch {
            return .answer(request.unavailable())
        }
        if let existing, existing.signIn == .password {
            return refuse(user: user, reason: "proxy: a password account has this name", words.proxyPasswordAccount, request)
        }
        if let existing, existing.disabled {
            return refuse(user: user, reason: "proxy: disabled account", words.proxyDisabled, request)
        }
        let account = existing.map { account in
            var account = account
            account.role = role
            return account
        } ?? .proxyManaged(user, role: role, at: request.now)
        let (session, cookie) = parts.sessions.make(for: account)
        do throws(LedgerError) {
            try ProxySignIn(trail: trail(request, name: user, source: "proxy")).signIn(existing, role: role, session: session)
        } catch {
            return .answer(request.unavailable())
        }
        parts.throttle.succeeded(account: user, network: request.http.clientKey, now: request.now.milliseconds)
        return .proceed(ConsoleSessions.Current(session: session, account: account),
                        cookies: cookies.filter { $0.value.hasPrefix(ConsoleSessions.cookie + "=") == false }
                            + [ConsoleSite.cookie(ConsoleSessions.cookie, cookie, secure: request.http.secure)])
    }

    /// 403 with a page saying why the proxy's user cannot sign in; audited at most once a
    /// minute per user (a refused user's every page load would otherwise be an entry).
    private func refuse(user: String, reason: String, _ advice: String, _ request: ConsoleRequest) -> Outcome {
        if let count = parts.proxyRefusals.note(user + "\u{0}" + reason, now: request.now.milliseconds) {
            _ = try? trail(request, name: user, source: "proxy").record(AuditNote(.signInFailed, detail: reason, rows: count), at: request.now)
        }
        return .answer(request.message(403, request.words.proxyRefusedTitle, advice))
    }

    /// The audit trail of `name` from the request's address (`proxy 10.0.0.5`, `console …`).
    private func trail(_ request: ConsoleRequest, name: String, source: String) -> AuditTrail {
        AuditTrail(ledger: parts.ledger, actor: Operator(name: name, source: "\(source) \(request.http.client)"), clock: parts.clock)
    }
}
