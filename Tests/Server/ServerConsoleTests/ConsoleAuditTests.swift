import ServerConsole
import ServerDomain
import ServerLedgerTesting
import ServerHTTPTypes
import SharedDomain
import Testing

/// Every console route that reads or changes personal data leaves exactly one audit entry, and
/// on a ledger that cannot write (a full disk) refuses with 503 and hands out nothing, changes
/// nothing. The table below is checked against the site itself: every page of `ConsolePage`
/// (the access table's keys) with every method it answers must have a row, so a new route
/// cannot be forgotten. docs/PRIVACY.md lists the same routes.
struct ConsoleAuditTests {
    /// What a route does on a ledger that cannot write.
    enum FullDisk: Equatable {
        /// 503: nothing read is shown, nothing is changed.
        case refused
        /// Answers as usual: it reads no personal data and writes nothing (forms, counts, the audit log).
        case answers(Int)
    }

    /// One request of the walk.
    struct Step: CustomStringConvertible {
        let page: ConsolePage
        let method: String
        var query: [String: String] = [:]
        var form: [String: String] = [:]
        /// The entries it leaves, in order (none: it reads or changes no personal data).
        let entries: [AuditAction]
        let status: Int
        let fullDisk: FullDisk

        var description: String { "\(method) \(page.path)\(query.isEmpty ? "" : "?\(query.sorted { $0.key < $1.key })")\(form.isEmpty ? "" : " \(form.sorted { $0.key < $1.key })")" }
    }

    static let name = "Kim Minji"
    static let phone = "01011112222"

    /// The walk, in order, as the admin (who may open every page). Why each exempt route reads
    /// no personal data is its comment.
    static func steps(receipt: Int64) async -> [Step] {
        [
            // The sign-in form, the dashboard's counts, the staff check-in form: nobody's data.
            Step(page: .login, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .login, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .dashboard, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .dashboard, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .inside, method: "GET", entries: [.inside], status: 200, fullDisk: .refused),
            // HEAD runs the page (headers as GET's), so it is audited as GET is.
            Step(page: .inside, method: "HEAD", entries: [.inside], status: 200, fullDisk: .refused),
            Step(page: .checkin, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .checkin, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .checkin, method: "POST", form: ["venue": "HALL-1", "name": "Lee"], entries: [.staffCheckIn], status: 303, fullDisk: .refused),
            // Staff check-out: its forms and the confirmation's count name nobody; each ending
            // is audited as the shell's `checkout` (one visit; every visit at a venue); a receipt
            // number that names nothing ends nothing and leaves no entry.
            Step(page: .checkout, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .checkout, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .checkout, method: "GET", query: ["venue": "HALL-1"], entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .checkout, method: "POST", form: ["checkin": "12345"], entries: [], status: 404, fullDisk: .refused),
            Step(page: .checkout, method: "POST", form: ["checkin": String(receipt)], entries: [.staffCheckOut], status: 303, fullDisk: .refused),
            Step(page: .checkout, method: "POST", form: ["venue": "HALL-1", "all": "yes"], entries: [.staffCheckOut], status: 303, fullDisk: .refused),
            // A password sign-in's second step, for a browser that is signed in already: on to
            // the dashboard (its own walk, codes, replays, recovery codes: test_server_second_factor.py).
            Step(page: .verify, method: "GET", entries: [], status: 303, fullDisk: .answers(303)),
            Step(page: .verify, method: "HEAD", entries: [], status: 303, fullDisk: .answers(303)),
            Step(page: .verify, method: "POST", form: ["code": "123456"], entries: [], status: 303, fullDisk: .answers(303)),
            // The account's own page names staff, no visitor; setting up a second factor writes
            // only when a code confirms it (this fixture has no second factors: 409).
            Step(page: .account, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .account, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .account, method: "POST", form: ["action": "begin"], entries: [], status: 409, fullDisk: .answers(409)),
            Step(page: .log, method: "GET", entries: [.export], status: 200, fullDisk: .refused),
            Step(page: .log, method: "HEAD", entries: [.export], status: 200, fullDisk: .refused),
            Step(page: .log, method: "GET", query: ["receipt": String(receipt)], entries: [.export], status: 200, fullDisk: .refused),
            Step(page: .export, method: "GET", query: ["format": "csv"], entries: [.export], status: 200, fullDisk: .refused),
            Step(page: .export, method: "GET", query: ["format": "excel"], entries: [.export], status: 200, fullDisk: .refused),
            Step(page: .export, method: "GET", query: ["format": "jsonl", "receipt": String(receipt)], entries: [.export], status: 200, fullDisk: .refused),
            // HEAD of an export sends the headers only: no row is read.
            Step(page: .export, method: "HEAD", query: ["format": "csv"], entries: [], status: 200, fullDisk: .answers(200)),
            // The erase page's empty form; a receipt number that names nothing reads nobody.
            Step(page: .erase, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .erase, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .erase, method: "GET", query: ["checkin": "12345"], entries: [], status: 404, fullDisk: .answers(404)),
            Step(page: .erase, method: "GET", query: ["phone": "010-1111-2222"], entries: [.erasePreview], status: 200, fullDisk: .refused),
            Step(page: .erase, method: "GET", query: ["checkin": String(receipt), "only": "yes"], entries: [.erasePreview], status: 200, fullDisk: .refused),
            Step(page: .erase, method: "POST", form: ["phone": "010-1111-2222"], entries: [.erase], status: 200, fullDisk: .refused),
            // The accounts' list names staff, not visitors; the audit log is the audit itself
            // (an entry for each look would grow it at every look).
            Step(page: .users, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .users, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .users, method: "POST", form: ["action": "add", "name": "eve", "role": "steward", "password": "eve-password"],
                 entries: [.accountAdded], status: 303, fullDisk: .refused),
            Step(page: .users, method: "POST", form: ["action": "passwd", "name": "eve", "password": "new-password"],
                 entries: [.accountChanged], status: 303, fullDisk: .refused),
            Step(page: .users, method: "POST", form: ["action": "disable", "name": "eve"], entries: [.accountChanged], status: 303, fullDisk: .refused),
            Step(page: .users, method: "POST", form: ["action": "enable", "name": "eve"], entries: [.accountChanged], status: 303, fullDisk: .refused),
            // A second factor taken away (`user totp disable`); an account without one changes nothing.
            Step(page: .users, method: "POST", form: ["action": "totp-disable", "name": "eve"], entries: [], status: 404, fullDisk: .refused),
            Step(page: .users, method: "POST", form: ["action": "remove", "name": "eve"], entries: [.accountRemoved], status: 303, fullDisk: .refused),
            // No such account: nothing changes, no entry (a ledger that cannot write may refuse
            // even to look, as the in-memory one does).
            Step(page: .users, method: "POST", form: ["action": "remove", "name": "nobody"], entries: [], status: 404, fullDisk: .refused),
            // The kiosks' reports carry no visitor data; a steer and a forget are audited.
            Step(page: .kiosks, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .kiosks, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .kiosks, method: "POST", form: ["action": "pause", "venue": "HALL-1", "kiosk": "door-1"], entries: [.kioskSteer], status: 303,
                 fullDisk: .refused),
            Step(page: .kiosks, method: "POST", form: ["action": "forget", "venue": "HALL-1", "kiosk": "door-1"], entries: [.kioskForget], status: 303,
                 fullDisk: .refused),
            Step(page: .kiosks, method: "POST", form: ["action": "new-code", "venue": "HALL-1", "kiosk": "nobody"], entries: [], status: 404,
                 fullDisk: .refused),
            // Webhooks (issue 40): the in-memory ledger keeps none, so the page says so (the
            // endpoints' names and URLs are no visitor's data either); its
            // changes are `WebhookChanges`' (audited in WebhookContract on SQLite and
            // PostgreSQL, and through the real console in test_server_webhooks.py).
            Step(page: .webhooks, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .webhooks, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .webhooks, method: "POST", form: ["action": "test", "name": "crm"], entries: [], status: 404, fullDisk: .answers(404)),
            // The API's tokens: names and scopes, no visitor; a new token is shown once (200).
            Step(page: .tokens, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .tokens, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .tokens, method: "POST", form: ["action": "add", "name": "crm", "scope": "read", "venues": "HALL-1"],
                 entries: [.tokenAdd], status: 200, fullDisk: .refused),
            Step(page: .tokens, method: "POST", form: ["action": "remove", "name": "crm"], entries: [.tokenRemove], status: 303, fullDisk: .refused),
            Step(page: .tokens, method: "POST", form: ["action": "remove", "name": "nobody"], entries: [], status: 404, fullDisk: .refused),
            Step(page: .audit, method: "GET", entries: [], status: 200, fullDisk: .answers(200)),
            Step(page: .audit, method: "HEAD", entries: [], status: 200, fullDisk: .answers(200)),
            // Sign-in and sign-out (walked last: they change the session).
            Step(page: .login, method: "POST", form: ["user": "steward", "password": "wrong"], entries: [.signInFailed], status: 401, fullDisk: .answers(401)),
            Step(page: .login, method: "POST", form: ["user": "steward", "password": "password-steward"], entries: [.signIn], status: 303, fullDisk: .refused),
            Step(page: .logout, method: "POST", entries: [.signOut], status: 303, fullDisk: .refused),
        ]
    }

    /// A console whose log holds one visitor with a name and a phone number; the admin signed in.
    static func fixture() async throws -> (ConsoleFixture, cookie: String, receipt: Int64) {
        let fixture = await ConsoleFixture()
        let visitor = NewCheckIn(venue: try await VenueID("HALL-1"), time: fixture.clock.now(), method: .staff, windowAge: nil, device: nil,
                                 visitor: Visitor(name: name, phone: phone), operatorName: "door")
        let receipt = try await fixture.ledger.record(visitor, rules: AdmissionRules(duplicateSeconds: 0))
        guard case .admitted(let outcome) = receipt else { throw LedgerError(.failed, "not admitted") }
        try await fixture.reportKiosk("door-1")
        let cookie = try await #require(await fixture.signIn("admin").cookie)
        return (fixture, cookie, outcome.checkIn.id)
    }

    /// Sends `step` as a browser would: the page's form token in a POST, a same-origin fetch;
    /// the sign-in form's requests as a browser that is not signed in.
    static func send(_ step: Step, _ fixture: ConsoleFixture, cookie: String) async -> HTTPResponse {
        var form = step.form
        var cookies = step.page == .login ? [:] : ["qrcheckin_console": cookie]
        if step.method == "POST" {
            if step.page == .login {
                let page = await fixture.send(HTTPRequest(method: "GET", path: "/admin/login"))
                let token = ConsoleFixture.cookie(page, "qrcheckin_console_login") ?? ""
                cookies = ["qrcheckin_console_login": token]
                form["form-token"] = token
            } else {
                let page = await fixture.send(HTTPRequest(method: "GET", path: ConsolePage.dashboard.path, cookies: cookies))
                form["form-token"] = ConsoleFixture.formToken(page) ?? ""
            }
        }
        return await fixture.send(HTTPRequest(method: step.method, path: step.page.path, query: step.query,
                                        headers: ["sec-fetch-site": "same-origin", "host": "127.0.0.1:8081"], cookies: cookies, form: form))
    }

    static func entries(_ ledger: InMemoryLedger) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await ledger.eachEntry(AuditQuery()) { entries.append($0); return true }
        return entries.reversed()
    }

    @Test func theTableHasARowForEveryRouteTheConsoleAnswers() async throws {
        let (fixture, cookie, receipt) = try await Self.fixture()
        let steps = await Self.steps(receipt: receipt)
        // Every page of the access table (and the sign-in form, which needs no session)…
        #expect(Set(ConsoleAccess.minimumRole.keys).union([.login, .verify]) == Set(ConsolePage.allCases))
        for page in ConsolePage.allCases {
            for method in ["GET", "HEAD", "POST"] where !steps.contains(where: { $0.page == page && $0.method == method }) {
                // …with every method it answers is walked, or answers 405.
                let response = await Self.send(Step(page: page, method: method, entries: [], status: 405, fullDisk: .refused), fixture, cookie: cookie)
                #expect(response.status == 405, "\(method) \(page.path) answers \(response.status) but is not in the table")
            }
        }
    }

    @Test func everyRouteLeavesExactlyTheEntriesOfItsAction() async throws {
        let (fixture, cookie, receipt) = try await Self.fixture()
        for step in await Self.steps(receipt: receipt) {
            let before = try await Self.entries(fixture.ledger)
            let response = await Self.send(step, fixture, cookie: cookie)
            let after = try await Self.entries(fixture.ledger)
            #expect(response.status == step.status, "\(step): \(response.status)")
            let added = Array(after.dropFirst(before.count))
            #expect(after.prefix(before.count) == before[...], "\(step): entries are only ever appended")
            #expect(added.map(\.action) == step.entries, "\(step): \(added)")
            let actor = step.page == .login ? "steward" : "admin"
            #expect(added.allSatisfy { $0.actor == actor && $0.source == "console 127.0.0.1" }, "\(step): \(added)")
            #expect(added.allSatisfy { !($0.subject ?? "").contains(Self.phone) && !($0.detail ?? "").contains(Self.name) },
                    "the audit log names what was done, never the visitor: \(added)")
        }
    }

    @Test func onAFullDiskEveryAuditedRouteRefusesAndHandsOutNothing() async throws {
        let (fixture, cookie, receipt) = try await Self.fixture()
        fixture.ledger.failWrites(with: LedgerError(.full, "database or disk is full"))
        let rows = try await fixture.ledger.count(CheckInQuery())
        let accounts = try await fixture.ledger.accounts()
        for step in await Self.steps(receipt: receipt) {
            let response = await Self.send(step, fixture, cookie: cookie)
            let body = await String(decoding: ConsoleExportTests.read(response), as: UTF8.self)
            switch step.fullDisk {
            case .refused:
                #expect(response.status == 503, "\(step): \(response.status)")
                #expect(!body.contains(Self.name) && !body.contains("2222") && !body.contains(Self.phone), "\(step) handed out: \(body.prefix(300))")
            case .answers(let status):
                #expect(response.status == status, "\(step): \(response.status)")
            }
            #expect(try await Self.entries(fixture.ledger).map(\.action) == [.signIn], "\(step): no entry but the sign-in's before the disk filled")
            #expect(try await fixture.ledger.count(CheckInQuery()) == rows, "\(step) changed the ledger")
            #expect(try await fixture.ledger.accounts() == accounts, "\(step) changed the ledger")
        }
    }
}
