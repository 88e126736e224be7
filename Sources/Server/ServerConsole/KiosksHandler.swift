import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// What the console's Kiosks page works with: the fleet, this server's bell (a steer given
/// here wakes the kiosk's held report at once) and the judge.
public struct KioskConsole: Sendable {
    public let fleet: any KioskFleet
    public let bell: SteerBell?
    public let judge: KioskJudge

    /// The parts.
    public init(fleet: any KioskFleet, bell: SteerBell?, judge: KioskJudge) {
        self.fleet = fleet
        self.bell = bell
        self.judge = judge
    }
}

/// `/admin/kiosks`: every kiosk that reports here, with its light (ok, late, offline), its
/// problems in words, the window it shows against the one it should, its last report, its
/// version and its latest steer ("applied 14:02:03"). Stewards see it; supervisors steer
/// (pause, resume, shake on and off, a fresh code); admins forget a retired kiosk. Each steer
/// and each forget is audited (`KioskSteering`, `KioskForgetting`), as `qrcheckin-server
/// kiosks set` and `forget` are.
struct KiosksHandler {
    let parts: ConsoleSite.Parts

    /// The console's steer buttons: the action's name, the change, and the least role.
    static let actions: [(name: String, change: KioskSteerChange?, role: ConsoleRole)] = [
        ("pause", KioskSteerChange(refresh: .paused), .supervisor),
        ("resume", KioskSteerChange(refresh: .auto), .supervisor),
        ("shake-on", KioskSteerChange(shake: .on), .supervisor),
        ("shake-off", KioskSteerChange(shake: .off), .supervisor),
        ("new-code", KioskSteerChange(newCode: true), .supervisor),
        ("forget", nil, .admin),
    ]

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        guard let kiosks = parts.kiosks else { return await page(request, status: 200, notice: nil) }
        guard request.http.method == "POST" else { return await page(request, status: 200, notice: nil) }
        let words = request.words
        guard let name = request.form("action"), let action = Self.actions.first(where: { $0.name == name }),
              let venue = request.form("venue").flatMap({ try? VenueID($0) }), let kiosk = request.form("kiosk").flatMap({ try? KioskName($0) }),
              let role = request.current?.account.role else {
            return await page(request, status: 400, notice: words.kioskUnknown)
        }
        guard role >= action.role else { return request.message(403, words.forbidden) }
        let key = KioskKey(venue: venue, name: kiosk)
        let done: Bool
        do throws(LedgerError) {
            if let change = action.change {
                done = try await KioskSteering(trail: request.trail(parts), bell: kiosks.bell).run(key, change) != nil
            } else {
                done = try await KioskForgetting(trail: request.trail(parts)).run(key)
            }
        } catch {
            return request.unavailable()
        }
        guard done else { return await page(request, status: 404, notice: words.kioskUnknown) }
        // 303: a reload does not steer twice.
        return request.redirect(request.link(ConsolePage.kiosks.path, "done=1"))
    }

    private func page(_ request: ConsoleRequest, status: Int, notice: String?) async -> HTTPResponse {
        let words = request.words
        var records: [KioskRecord] = []
        if let kiosks = parts.kiosks {
            do throws(LedgerError) {
                records = try await kiosks.fleet.kiosks(venue: nil)
            } catch {
                return request.unavailable()
            }
        }
        let role = request.current?.account.role ?? .steward
        let listing = parts.kiosks.map { KioskListing(records: records, judge: $0.judge, now: request.now) }
        let action = request.link(ConsolePage.kiosks.path)
        func button(_ row: KioskListing.Row, _ verb: String, _ label: String, danger: Bool = false) -> HTML {
            let key = row.record.key
            let style: HTML = danger ? " class=\"danger\"" : ""
            return "<form method=\"post\" action=\"\(action)\" class=\"inline\">\(request.hiddenToken)"
                + "<input type=\"hidden\" name=\"venue\" value=\"\(key.venue.rawValue)\"><input type=\"hidden\" name=\"kiosk\" value=\"\(key.name.rawValue)\">"
                + "<input type=\"hidden\" name=\"action\" value=\"\(verb)\">"
                + "<button type=\"submit\"\(style) aria-label=\"\(label) — \(key.name.rawValue)\">\(label)</button></form>"
        }
        let rows = (listing?.rows ?? []).map { row -> HTML in
            let report = row.record.report, daemon = report.daemon
            let problems: HTML = row.verdict.problems.isEmpty ? "<span class=\"ok\">\(words.kioskNoProblem)</span>"
                : "<ul class=\"problems\">" + row.verdict.problems.map { problem -> HTML in
                    "<li>\(words.language == .ko ? problem.korean : problem.english)</li>"
                }.joined() + "</ul>"
            // A paused daemon reports no window: its code stays on screen, not rotating.
            let shown = daemon?.window.map(String.init) ?? (daemon?.refresh == .paused ? words.kioskPaused : "-")
            let expected = row.verdict.expectedWindow.map(String.init) ?? "-"
            let modes = "\(daemon?.refresh == .paused ? words.kioskPaused : words.kioskRotating) · \(daemon.map { words.kioskShakeMode($0.shake) } ?? "-")"
            var steerText: HTML = "-"
            if let given = row.record.steer {
                let asked = "\(given.steer.by.rawValue) \(Self.clock(WallTime(seconds: given.steer.at), request))"
                let outcome: HTML = given.outcome.map { $0 == "ok" ? "" : " (\($0))" } ?? ""
                let applied: HTML = given.appliedAt.map { at -> HTML in
                    "<span class=\"ok\">\(words.kioskApplied(Self.clock(WallTime(seconds: at), request)))</span>\(outcome)"
                } ?? "<span class=\"who\">\(words.kioskPending)</span>"
                steerText = "\(words.kioskAsked(given.steer)) — \(asked)<br>\(applied)"
            }
            var controls: HTML = ""
            if role >= .supervisor {
                controls += daemon?.refresh == .paused ? button(row, "resume", words.kioskResume) : button(row, "pause", words.kioskPause)
                controls += daemon?.shake == .off ? button(row, "shake-on", words.kioskShakeOn) : button(row, "shake-off", words.kioskShakeOff)
                controls += button(row, "new-code", words.kioskNewCode)
            }
            if role >= .admin { controls += button(row, "forget", words.kioskForget, danger: true) }
            let state = row.verdict.state
            return """
                <tr><th scope="row">\(report.venue.rawValue) · \(report.kiosk.rawValue)</th>
                <td data-label="\(words.state)"><span class="light light-\(state.rawValue)">● \(words.kioskState(state))</span></td>
                <td data-label="\(words.kioskProblems)">\(problems)</td>
                <td data-label="\(words.kioskWindow)">\(shown) / \(expected)</td>
                <td data-label="\(words.kioskLastReport)">\(request.local(row.record.receivedAt))<br><span class="who">\(words.kioskAgo(row.verdict.silenceSeconds))</span></td>
                <td data-label="\(words.kioskVersion)">\(report.version)<br><span class="who">\(words.kioskSkew(row.verdict.clock.seconds))</span></td>
                <td data-label="\(words.kioskModes)">\(modes)</td>
                <td data-label="\(words.kioskSteer)">\(steerText)</td>
                \(role >= .supervisor ? "<td data-label=\"\(words.changes)\">\(controls)</td>" as HTML : "")</tr>
                """
        }.joined()
        let saved: HTML = request.query("done") != nil ? "<p class=\"ok\" role=\"status\">\(words.done)</p>" : ""
        let alert: HTML = notice.map { notice -> HTML in "<p class=\"error\" role=\"alert\">\(notice)</p>" } ?? ""
        let table: HTML = rows.isEmpty ? "<p>\(words.kioskNone)</p>" : """
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.kiosks)"><table class="cards"><thead><tr>
            <th scope="col">\(words.kiosk)</th><th scope="col">\(words.state)</th><th scope="col">\(words.kioskProblems)</th>
            <th scope="col">\(words.kioskWindow)</th><th scope="col">\(words.kioskLastReport)</th><th scope="col">\(words.kioskVersion)</th>
            <th scope="col">\(words.kioskModes)</th><th scope="col">\(words.kioskSteer)</th>\(role >= .supervisor ? "<th scope=\"col\">\(words.changes)</th>" as HTML : "")
            </tr></thead><tbody>\(rows)</tbody></table></div>
            """
        let content: HTML = """
            <h1>\(words.kiosks)</h1>
            \(saved)\(alert)
            <p class="note">\(request.local(request.now)) · \(words.kioskNote)</p>
            \(table)
            """
        return request.page(status, words.kiosks, content)
    }

    /// A time of day as the page shows a steer's: `14:02:03`, local.
    static func clock(_ time: WallTime, _ request: ConsoleRequest) -> String {
        LocalTime(time, in: request.zone).second
    }
}
