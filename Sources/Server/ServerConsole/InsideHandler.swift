import ServerDomain
import ServerHTTPTypes
import ServerWeb
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

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        var visits: [CheckIn] = []
        do throws(LedgerError) {
            try await EvacuationRoll(trail: request.trail(parts), visits: parts.visits, venues: parts.venues).run(venue: nil, detail: "venue all") {
                visit throws(LedgerError) in
                visits.append(visit)
                return visits.count < Self.mostShown
            }
        } catch {
            return request.unavailable()
        }
        let byVenue = Dictionary(grouping: visits, by: \.venue)
        var sections: HTML = ""
        for venue in byVenue.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            let name = parts.venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue
            let people = byVenue[venue]!
            var rows: HTML = ""
            for (index, visit) in people.enumerated() {
                let breaks: HTML = index > 0 && index % Self.perPrintedPage == 0 ? " class=\"page-break\"" : ""
                rows += "<tr\(breaks)><td>\(index + 1)</td><td>\(request.local(visit.time))</td>"
                    + "<td>\(visit.entry.visitor?.name ?? "-")</td><td>\(visit.entry.visitor?.phone.map(Self.masked) ?? "-")</td>"
                    + "<td>\(visit.method.rawValue)</td><td>\(visit.id)</td></tr>"
            }
            sections += """
                <section class="roll"><h2>\(name) — \(people.count)</h2>
                <table><thead><tr><th scope="col">#</th><th scope="col">\(words.time)</th><th scope="col">\(words.name)</th>
                <th scope="col">\(words.phone)</th><th scope="col">\(words.method)</th><th scope="col">\(words.receipt)</th></tr></thead>
                <tbody>\(rows)</tbody></table></section>
                """
        }
        let none: HTML = "<p>\(words.none)</p>"
        let content: HTML = """
            <h1>\(words.inside) — \(visits.count)</h1>
            <p class="note">\(request.local(request.now)) · \(words.insideNote)</p>
            \(sections.isEmpty ? none : sections)
            """
        return request.page(200, words.inside, content)
    }

    /// A phone number as the roll shows it: its last four digits.
    static func masked(_ phone: String) -> String { "…" + phone.suffix(4) }
}
