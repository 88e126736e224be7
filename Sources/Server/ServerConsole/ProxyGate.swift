import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// The venue's proxy at the console's door (`admin-auth = proxy`), on every request before the
/// access table. The proxy's headers reach here only from a trusted proxy (the HTTP adapter
/// drops them from anyone else, and `HTTPRequest.untrustedIdentity` says they came: counted,
/// and audited at most once a minute per address as a spoof attempt, `proxy-spoof`). With a
/// user in them:
///
/// - no session: the user signs in (`ProxySignIn`: the account added on its first sign-in, its
///   role as its groups say at every sign-in), and the request goes on signed in, the new
///   session's cookie set on its answer; refused (403) with a page that says why when its
///   groups give no role, when a password account has that name, or when the account is
///   disabled;
/// - a session of that user: goes on (the proxy's identity is re-checked on every request);
/// - a session of another account: that session ends, and the user signs in anew.
///
/// Without a user, a session the proxy began ends (the proxy stopped vouching for it); a
/// password session (`admin-auth = password,proxy`) goes on. The sign-out and the sign-in page
/// reached from it (`?out=1`) do not sign in again at once.
struct ProxyGate {
    let parts: ConsoleSite.Parts

    /// What the request does next.
    enum Outcome {
        /// Its handler runs with this session (if any), and its answer sets these cookies.
        case proceed(ConsoleSessions.Current?, cookies: [(name: String, value: String)])
        /// This is its answer (a refusal, or 503).
        case answer(HTTPResponse)
    }

    func check(_ request: ConsoleRequest, page: ConsolePage) async -> Outcome {
        let http = request.http
        if http.untrustedIdentity, let count = parts.spoofs.note(http.clientKey, now: request.now.milliseconds) {
            // The log is told; a log that cannot take it changes nothing for this request.
            _ = try? await action(request, name: "-", source: "console").spoofed(count: count, at: request.now)
        }
        guard let proxy = parts.signIn.proxy else { return .proceed(request.current, cookies: []) }
        let sent = http.headers[proxy.userHeader]?.trimmingBlanks()
        let user = sent?.isEmpty == false ? sent : nil
        var cookies: [(name: String, value: String)] = []
        if let current = request.current {
            let account = current.account
            let stays = account.signIn == .proxy ? user == account.name : user == nil || user == account.name
            if stays { return .proceed(current, cookies: []) }
            let reason = user == nil ? "the proxy names nobody" : "the proxy names another user"
            do throws(LedgerError) {
                try await action(request, name: account.name, source: account.signIn == .proxy ? "proxy" : "console")
                    .ended(idHash: current.session.idHash, reason: reason, at: request.now)
            } catch {
                return .answer(request.unavailable())
            }
            cookies.append(ConsoleSite.cookie(ConsoleSessions.cookie, nil, secure: http.secure))
        }
        // After a sign-out, its page (the proxy still vouches; the link on it signs in again).
        guard let user, page != .logout, !(page == .login && http.query["out"] != nil) else { return .proceed(nil, cookies: cookies) }
        let groups = ProxySignInSettings.groups(http.headers[proxy.groupsHeader])
        return await signIn(user, role: proxy.role(for: groups), groups: groups, request, cookies: cookies)
    }

    /// Signs `user` in as the proxy says, or refuses with a page that says why.
    private func signIn(_ user: String, role: ConsoleRole?, groups: [String], _ request: ConsoleRequest,
                        cookies: [(name: String, value: String)]) async -> Outcome {
        let words = request.words
        guard ConsoleAccount.isValidName(user) else {
            return await refuse(user: "-", reason: "proxy: the user is no account name", words.proxyBadName, request, cookies)
        }
        guard let role else {
            let named = groups.isEmpty ? "no groups" : "groups " + groups.prefix(20).joined(separator: ", ")
            return await refuse(user: user, reason: "proxy: \(named) give no role", words.proxyNoRole(user, groups), request, cookies)
        }
        let existing: ConsoleAccount?
        do throws(LedgerError) {
            existing = try await parts.accounts.account(named: user)
        } catch {
            return .answer(request.unavailable())
        }
        if let existing, existing.signIn == .password {
            return await refuse(user: user, reason: "proxy: a password account has this name", words.proxyPasswordAccount, request, cookies)
        }
        if let existing, existing.disabled {
            return await refuse(user: user, reason: "proxy: disabled account", words.proxyDisabled, request, cookies)
        }
        var account = existing ?? .proxyManaged(user, role: role, at: request.now)
        account.role = role
        let (session, cookie) = parts.sessions.make(for: account)
        do throws(LedgerError) {
            try await action(request, name: user, source: "proxy").signIn(existing, role: role, session: session)
        } catch {
            return .answer(request.unavailable())
        }
        return .proceed(ConsoleSessions.Current(session: session, account: account),
                        cookies: [ConsoleSite.cookie(ConsoleSessions.cookie, cookie, secure: request.http.secure)])
    }

    /// 403 with a page saying why the proxy's user cannot sign in; audited at most once a
    /// minute per user and reason (a refused user's every page load would otherwise be an entry).
    private func refuse(user: String, reason: String, _ advice: String, _ request: ConsoleRequest,
                        _ cookies: [(name: String, value: String)]) async -> Outcome {
        if let count = parts.proxyRefusals.note(user + "\u{0}" + reason, now: request.now.milliseconds) {
            _ = try? await action(request, name: user, source: "proxy").refused(reason: reason, count: count, at: request.now)
        }
        return .answer(request.message(403, request.words.proxyRefusedTitle, advice, extra: cookies))
    }

    /// The proxy sign-in action of `name` from the request's address (`proxy 10.0.0.5`, `console …`).
    private func action(_ request: ConsoleRequest, name: String, source: String) -> ProxySignIn {
        ProxySignIn(trail: AuditTrail(ledger: parts.transactions, actor: Operator(name: name, source: "\(source) \(request.http.client)"),
                                      clock: parts.clock))
    }
}

extension String {
    /// The text without spaces and tabs around it.
    func trimmingBlanks() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
