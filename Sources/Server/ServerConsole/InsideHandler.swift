import ServerDomain
import ServerHTTPTypes
import ServerSite
import SharedDomain

/// `/admin/inside`: who is inside now, per venue (`OpenVisits`), printable as a roll (the
/// print style sheet breaks a page every 40 names). Reading it is audited before it is shown
/// (`EvacuationRoll`): it lists people.
struct InsideHandler {
    let parts: ConsoleSite.Parts
    /// Names a printed page holds.
    static let perPrintedPage = 40
    /// Visits one page shows at most.
    static let mostShown = 100_000

    func respond(to request: ConsoleRequest) -> HTTPResponse {
        let words = request.words
        var visits: [CheckIn] = []
        do throws(LedgerError) {
            try EvacuationRoll(trail: request.trail(parts), venues: parts.venues).run(venue: nil, detail: "venue all") { visit in
                visits.append(visit)
                return visits.count < Self.mostShown
            }
        } catch {
            return request.unavailable()
        }
        let byVenue = Dictionary(grouping: visits, by: \.venue)
        var sections = ""
        for venue in byVenue.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            let name = parts.venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue
            let people = byVenue[venue]!
            var rows = ""
            for (index, visit) in people.enumerated() {
                let breaks = index > 0 && index % Self.perPrintedPage == 0 ? " class=\"page-break\"" : ""
                rows += "<tr\(breaks)><td>\(index + 1)</td><td>\(HTML.escape(request.local(visit.time)))</td>"
                    + "<td>\(HTML.escape(visit.entry.visitor?.name ?? "-"))</td><td>\(HTML.escape(visit.entry.visitor?.phone.map(Self.masked) ?? "-"))</td>"
                    + "<td>\(visit.method.rawValue)</td><td>\(visit.id)</td></tr>"
            }
            sections += """
                <section class="roll"><h2>\(HTML.escape(name)) — \(people.count)</h2>
                <table><thead><tr><th scope="col">#</th><th scope="col">\(HTML.escape(words.time))</th><th scope="col">\(HTML.escape(words.name))</th>
                <th scope="col">\(HTML.escape(words.phone))</th><th scope="col">\(HTML.escape(words.method))</th><th scope="col">\(HTML.escape(words.receipt))</th></tr></thead>
                <tbody>\(rows)</tbody></table></section>
                """
        }
        let content = """
            <h1>\(HTML.escape(words.inside)) — \(visits.count)</h1>
            <p class="note">\(HTML.escape(request.local(request.now))) · \(HTML.escape(words.insideNote))</p>
            \(sections.isEmpty ? "<p>\(HTML.escape(words.none))</p>" : sections)
            """
        return request.page(200, words.inside, content)
    }

    /// A phone number as the roll shows it: its last four digits.
    static func masked(_ phone: String) -> String { "…" + phone.suffix(4) }
}
