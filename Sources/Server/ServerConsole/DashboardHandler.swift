import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// `/admin/`: the dashboard at a glance (issue 39). Per venue a card: who is inside now against
/// the capacity (the one count of open visits the roll, `inside`, the occupancy endpoint and
/// `status` show), today's occupancy curve (entries minus exits every 5 minutes, an SVG drawn
/// here with labelled axes and the capacity line, and a table as its text alternative),
/// check-ins today and in the last hour, refused scans today by reason, and a place for the
/// venue's kiosks' lights. Then every venue in one table, the refusals of no venue, the
/// ledger's health. The console's script refreshes the `live` part every 30 s; without it, the
/// page is true as of loading and a reload refreshes it.
struct DashboardHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        let now = request.now
        let dayStart = CalendarDay(containing: now, in: parts.zone).midnight(in: parts.zone)
        let flowQuery = OccupancyCurve.query(start: dayStart, now: now, longestStaySeconds: parts.venues.longestStaySeconds)
        let lastHour: [CheckInTally]
        let refusals: [RefusalCount]
        let presence: [LiveCounts.Presence]
        let flows: [VisitFlow]
        let kiosks: [KioskRecord]
        do throws(LedgerError) {
            // Tallies only, each from the index on time: no count of the whole log (at a million
            // check-ins that alone cost 20-80 ms a page). The curve is one grouped read of the
            // same index (`VisitFlowLog`).
            // Today's check-ins come with the curves' read (every entry since midnight is in it),
            // so the day's rows are read once.
            lastHour = try await parts.log.tally(CheckInQuery(from: WallTime(milliseconds: now.milliseconds - 3_600_000)))
            refusals = try await parts.refusals.refusalCounts(since: dayStart)
            // The one count of open visits (`LiveCounts.presence`, as `status` and `/metrics`
            // read it), never a count of check-ins within the duplicate time.
            presence = try await LiveCounts.presence(from: parts.visits, venues: parts.venues, at: now)
            flows = try await parts.flow.visitFlow(flowQuery)
            kiosks = try await parts.kiosks?.fleet.kiosks(venue: nil) ?? []
        } catch {
            return request.unavailable()
        }
        var today: [VenueID: Int] = [:], hour: [VenueID: Int] = [:], insideByVenue: [VenueID: Int] = [:]
        let firstBucket = flowQuery.bucket(of: dayStart)
        for flow in flows where flow.entered >= firstBucket { today[flow.venue, default: 0] += flow.count }
        for tally in lastHour { hour[tally.venue, default: 0] += tally.count }
        for venue in presence { insideByVenue[venue.venue] = venue.inside }
        var venues = Set(today.keys).union(hour.keys).union(insideByVenue.keys).union(parts.venues.profiles.keys)
        var refused: [VenueID: [RefusalReason: Int]] = [:], unattributed: [RefusalReason: Int] = [:], byReason: [RefusalReason: Int] = [:]
        for refusal in refusals {
            byReason[refusal.reason, default: 0] += refusal.count
            if let venue = refusal.venue {
                venues.insert(venue)
                refused[venue, default: [:]][refusal.reason, default: 0] += refusal.count
            } else {
                unattributed[refusal.reason, default: 0] += refusal.count
            }
        }
        // Each kiosk's light, judged now as the Kiosks page judges it (`KioskJudge`).
        var lights: [VenueID: [(record: KioskRecord, verdict: KioskVerdict)]] = [:]
        if let judge = parts.kiosks?.judge {
            for record in kiosks {
                venues.insert(record.key.venue)
                lights[record.key.venue, default: []].append((record, judge.verdict(on: record, at: now)))
            }
        }
        let sorted = venues.sorted { $0.rawValue < $1.rawValue }
        let cards = sorted.map { venue -> HTML in
            let profile = parts.venues.profile(for: venue) ?? parts.venues.defaults
            let curve = OccupancyCurve(venue: venue, flows: flows, query: flowQuery, start: dayStart, now: now,
                                       maxStaySeconds: profile.maxStaySeconds, insideNow: insideByVenue[venue] ?? 0,
                                       capacity: parts.venues.profile(for: venue)?.presence.capacity)
            let name = parts.venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue
            return VenueCard(venue: venue, name: name, curve: curve, today: today[venue] ?? 0, lastHour: hour[venue] ?? 0,
                             refused: refused[venue] ?? [:], lights: lights[venue] ?? [], request: request).html
        }.joined()
        let rows = sorted.map { venue -> HTML in
            let profile = parts.venues.profile(for: venue)
            let name = profile?.name(of: venue) ?? venue.rawValue
            // "23 / 40", as a door sign shows it: one column, so the table fits a phone of 320 px.
            let inside = "\(insideByVenue[venue] ?? 0)" + (profile?.presence.capacity.map { " / \($0)" } ?? "")
            return "<tr><th scope=\"row\">\(name)</th><td>\(inside)</td><td>\(today[venue] ?? 0)</td><td>\(hour[venue] ?? 0)</td></tr>"
        }.joined()
        let refusalRows = RefusalReason.allCases.compactMap { reason in
            byReason[reason].map { count -> HTML in
                "<tr><th scope=\"row\">\(words.web.refusal(reason).title) <code>\(reason.rawValue)</code></th><td>\(unattributed[reason] ?? 0)</td><td>\(count)</td></tr>"
            }
        }.joined()
        let healthy = parts.ledgerAnswers()
        let empty: HTML = "<p>\(words.none)</p>"
        let table: HTML = """
            <div class="scroll"><table><thead><tr><th scope="col">\(words.reason)</th><th scope="col">\(words.noVenue)</th>\
            <th scope="col">\(words.all)</th></tr></thead><tbody>\(refusalRows)</tbody></table></div>
            """
        let content: HTML = """
            <h1>\(words.dashboard)</h1>
            <div id="live" data-refresh="30">
            <p class="stamp">\(words.asOf(request.local(now)))</p>
            <div class="cards">\(cards)</div>
            <h2>\(words.allVenues)</h2>
            <div class="scroll"><table><caption>\(words.venue)</caption>
            <thead><tr><th scope="col">\(words.venue)</th><th scope="col">\(words.insideNow) / \(words.capacity)</th>
            <th scope="col">\(words.todayCheckIns)</th><th scope="col">\(words.lastHour)</th></tr></thead>
            <tbody>\(rows)</tbody>
            <tfoot><tr><th scope="row">\(words.all)</th><td>\(insideByVenue.values.reduce(0, +))</td><td>\(today.values.reduce(0, +))</td><td>\(hour.values.reduce(0, +))</td></tr></tfoot>
            </table></div>
            <h2>\(words.refusals)</h2>
            \(refusalRows.isEmpty ? empty : table)
            <h2>\(words.ledgerHealth)</h2>
            <p class="\(healthy ? "ok" : "error")">\(healthy ? words.healthy : words.outage)</p>
            </div>
            """
        return request.page(200, words.dashboard, content)
    }
}

/// One venue's card on the dashboard.
struct VenueCard {
    let venue: VenueID
    let name: String
    let curve: OccupancyCurve
    let today: Int
    let lastHour: Int
    let refused: [RefusalReason: Int]
    let lights: [(record: KioskRecord, verdict: KioskVerdict)]
    let request: ConsoleRequest

    /// The venue's kiosks, each a light in words (ok, late, offline) and its first problem,
    /// linked to the Kiosks page; nothing when no kiosk reports for the venue.
    var kioskLights: HTML {
        guard !lights.isEmpty else { return "" }
        let words = request.words
        let items = lights.map { light -> HTML in
            let state = light.verdict.state
            let problem: HTML = light.verdict.problems.first.map { " <span class=\"who\">\(words.language == .ko ? $0.korean : $0.english)</span>" } ?? ""
            return "<li><span class=\"light light-\(state.rawValue)\">● \(light.record.key.name.rawValue)</span> \(words.kioskState(state))\(problem)</li>"
        }.joined()
        return """
            <h3 class="lights-title"><a href="\(request.link(ConsolePage.kiosks.path))">\(words.kiosks)</a></h3>\
            <ul class="lights">\(items)</ul>
            """
    }

    var html: HTML {
        let words = request.words
        let inside = curve.insideNow
        // Full and nearly full in words and in colour (never colour alone).
        var level: HTML = ""
        var state = "room"
        if let capacity = curve.capacity {
            if inside >= capacity {
                state = "full"
                level = " <span class=\"level full\">\(words.full)</span>"
            } else if inside * 10 >= capacity * 9 {
                state = "near"
                level = " <span class=\"level near\">\(words.nearlyFull)</span>"
            }
        }
        let capacityText: HTML = curve.capacity.map { " <span class=\"of\">/ \($0)</span>" } ?? ""
        let capacityLabel: HTML = curve.capacity == nil ? "\(words.insideNow)" : "\(words.insideNow) / \(words.capacity)"
        let chart = OccupancyChart(curve: curve, name: name, words: words, zone: request.zone)
        let refusedTotal = refused.values.reduce(0, +)
        let reasons = RefusalReason.allCases.compactMap { reason in
            refused[reason].map { count -> HTML in "<li>\(words.web.refusal(reason).title) <code>\(reason.rawValue)</code> <strong>\(count)</strong></li>" }
        }.joined()
        let reasonList: HTML = reasons.isEmpty ? "" : "<ul class=\"reasons\">\(reasons)</ul>"
        let heading: HTML = name == venue.rawValue ? "\(name)" : "\(name) <span class=\"id\">\(venue)</span>"
        return """
            <section class="venue \(state)" data-venue="\(venue)" aria-labelledby="venue-\(venue)">
            <h2 id="venue-\(venue)">\(heading)</h2>
            <p class="inside"><span class="label">\(capacityLabel)</span> <strong class="now">\(inside)</strong>\(capacityText)\(level)</p>
            <figure>\(chart.svg)<figcaption>\(words.curveCaption)</figcaption></figure>
            \(chart.hourTable)
            <dl class="counts"><div><dt>\(words.todayCheckIns)</dt><dd>\(today)</dd></div><div><dt>\(words.lastHour)</dt><dd>\(lastHour)</dd></div>\
            <div><dt>\(words.refusedToday)</dt><dd>\(refusedTotal)</dd></div></dl>
            \(reasonList)
            \(kioskLights)
            </section>
            """
    }
}
