import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// `/admin/`: per venue, who is inside (open visits, as the roll, `status` and the occupancy
/// endpoint count them) and the capacity, check-ins today and in the last hour, refused scans by
/// reason, an hour-by-hour chart of today (SVG drawn here: no chart library, no script), the
/// ledger's health. The script refreshes the `live` part every 30 s; without it, a reload does.
struct DashboardHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        let dayStart = CalendarDay(containing: request.now, in: parts.zone).midnight(in: parts.zone)
        let tallies: [CheckInTally]
        let lastHour: [CheckInTally]
        let refusals: [RefusalCount]
        let presence: [LiveCounts.Presence]
        do throws(LedgerError) {
            // Tallies only, each from the index on time: no count of the whole log (at a million
            // check-ins that alone cost 20-80 ms a page).
            tallies = try await parts.log.tally(CheckInQuery(from: dayStart))
            lastHour = try await parts.log.tally(CheckInQuery(from: WallTime(milliseconds: request.now.milliseconds - 3_600_000)))
            refusals = try await parts.refusals.refusalCounts(since: dayStart)
            // The one count of open visits (`LiveCounts.presence`, as `status` and `/metrics`
            // read it), never a count of check-ins within the duplicate time.
            presence = try await LiveCounts.presence(from: parts.visits, venues: parts.venues, at: request.now)
        } catch {
            return request.unavailable()
        }
        var today: [VenueID: Int] = [:], hour: [VenueID: Int] = [:], insideByVenue: [VenueID: Int] = [:]
        for tally in tallies { today[tally.venue, default: 0] += tally.count }
        for tally in lastHour { hour[tally.venue, default: 0] += tally.count }
        for venue in presence { insideByVenue[venue.venue] = venue.inside }
        var venues = Set(today.keys).union(hour.keys).union(insideByVenue.keys).union(parts.venues.profiles.keys)
        for refusal in refusals { if let venue = refusal.venue { venues.insert(venue) } }
        let rows = venues.sorted { $0.rawValue < $1.rawValue }.map { venue -> HTML in
            let profile = parts.venues.profile(for: venue)
            let name = profile?.name(of: venue) ?? venue.rawValue
            // "23 / 40", as a door sign shows it: one column, so the table fits a phone of 320 px.
            let inside = "\(insideByVenue[venue] ?? 0)" + (profile?.presence.capacity.map { " / \($0)" } ?? "")
            return "<tr><th scope=\"row\">\(name)</th><td>\(inside)</td><td>\(today[venue] ?? 0)</td><td>\(hour[venue] ?? 0)</td></tr>"
        }.joined()
        var byReason: [RefusalReason: Int] = [:]
        for refusal in refusals { byReason[refusal.reason, default: 0] += refusal.count }
        let refusalRows = RefusalReason.allCases.compactMap { reason in
            byReason[reason].map { count -> HTML in "<tr><th scope=\"row\">\(words.web.refusal(reason).title) <code>\(reason.rawValue)</code></th><td>\(count)</td></tr>" }
        }.joined()
        let healthy = parts.ledgerAnswers()
        let empty: HTML = "<p>\(words.none)</p>"
        let table: HTML = "<table><thead><tr><th scope=\"col\">\(words.reason)</th><th scope=\"col\">\(words.count)</th></tr></thead><tbody>\(refusalRows)</tbody></table>"
        let content: HTML = """
            <h1>\(words.dashboard)</h1>
            <div id="live" data-refresh="30">
            <p class="stamp">\(request.local(request.now))</p>
            <table><caption>\(words.venue)</caption>
            <thead><tr><th scope="col">\(words.venue)</th><th scope="col">\(words.insideNow) / \(words.capacity)</th>
            <th scope="col">\(words.todayCheckIns)</th><th scope="col">\(words.lastHour)</th></tr></thead>
            <tbody>\(rows)</tbody>
            <tfoot><tr><th scope="row">\(words.all)</th><td>\(insideByVenue.values.reduce(0, +))</td><td>\(today.values.reduce(0, +))</td><td>\(hour.values.reduce(0, +))</td></tr></tfoot>
            </table>
            <h2>\(words.byHour)</h2>
            \(HourChart(tallies: tallies, dayStart: dayStart, zone: parts.zone, label: words.byHour).svg)
            <h2>\(words.refusals)</h2>
            \(refusalRows.isEmpty ? empty : table)
            <h2>\(words.ledgerHealth)</h2>
            <p class="\(healthy ? "ok" : "error")">\(healthy ? words.healthy : words.outage)</p>
            </div>
            """
        return request.page(200, words.dashboard, content)
    }
}

/// Today's check-ins per local hour as an SVG bar chart, drawn on the server: 24 bars, each
/// with its count as a title (a screen reader and a hover read it), no inline style.
struct HourChart {
    let tallies: [CheckInTally]
    let dayStart: WallTime
    let zone: any LocalTimeZone
    let label: String

    var svg: HTML {
        var hours = [Int](repeating: 0, count: 24)
        for tally in tallies {
            let hour = Int((tally.quarter.milliseconds - dayStart.milliseconds) / 3_600_000)
            if (0..<24).contains(hour) { hours[hour] += tally.count }
        }
        let top = max(1, hours.max() ?? 1)
        let bars = hours.enumerated().map { hour, count -> HTML in
            let height = count == 0 ? 0 : max(2, count * 100 / top)
            return "<rect x=\"\(hour * 12 + 1)\" y=\"\(110 - height)\" width=\"10\" height=\"\(height)\" class=\"bar\"><title>\(hour):00 \(count)</title></rect>"
        }.joined()
        let ticks = stride(from: 0, to: 24, by: 6).map { hour -> HTML in "<text x=\"\(hour * 12 + 1)\" y=\"124\" class=\"tick\">\(hour)</text>" }.joined()
        return "<svg class=\"chart\" viewBox=\"0 0 288 128\" role=\"img\" aria-label=\"\(label), max \(hours.max() ?? 0)\">"
            + "<line x1=\"0\" y1=\"110\" x2=\"288\" y2=\"110\" class=\"axis\"/>\(bars)\(ticks)</svg>"
    }
}
