import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/log`: the visitor log searched by venue, time range or receipt number, oldest first,
/// 50 rows a page. Pages follow by keyset, never OFFSET: the next page starts at the last row's
/// time (`after=MS.N`: N rows at that very millisecond were shown), so page 1,000 costs what
/// page 1 costs (the index on time seeks to it). Reading it is audited as an export of its rows.
struct LogHandler {
    let parts: ConsoleSite.Parts
    static let pageSize = 50

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let filter: LogFilter
        do throws(UnreadableField) {
            filter = try LogFilter(request, paged: true)
        } catch {
            // Nothing read, nothing audited: the form again, the field named.
            return page(request, texts: LogFilter.texts(request), problem: error, body: nil)
        }
        var rows: [CheckIn] = []
        var next: String?
        do throws(LedgerError) {
            // The page's rows are audited as an export of them before they are shown.
            rows = try await VisitorLogExport(trail: request.trail(parts), log: parts.log).page(subject: "visitor log page",
                                                                                               detail: filter.detail + " format=page") {
                log throws(LedgerError) -> [CheckIn] in
                if let receipt = filter.receipt { return try await log.find(id: receipt).map { [$0] }?.filter(filter.admits) ?? [] }
                var query = filter.query
                var skip = 0
                if let after = filter.after {
                    query.from = WallTime(milliseconds: max(after.milliseconds, query.from?.milliseconds ?? after.milliseconds))
                    skip = query.from!.milliseconds == after.milliseconds ? after.shown : 0
                }
                query.limit = skip + Self.pageSize + 1
                let read = try await log.checkIns(query, after: nil)
                let window = Array(read.dropFirst(skip))
                let rows = Array(window.prefix(Self.pageSize))
                if window.count > Self.pageSize, let last = rows.last {
                    // Rows at the last row's millisecond shown so far, on this page and before it.
                    let sameHere = rows.filter { $0.time == last.time }.count
                    let before = query.from == last.time ? skip : 0
                    next = "\(last.time.milliseconds).\(sameHere + before)"
                }
                return rows
            }
        } catch {
            return request.unavailable()
        }
        let body = rows.map { checkIn -> HTML in
            "<tr><td>\(checkIn.id)</td><td>\(checkIn.venue.rawValue)</td><td>\(request.local(checkIn.time))</td>"
                + "<td>\(checkIn.method.rawValue)</td><td>\(checkIn.entry.visitor?.name ?? "")</td>"
                + "<td>\(checkIn.entry.visitor?.phone ?? "")</td><td>\(checkIn.entry.operatorName ?? "")</td></tr>"
        }.joined()
        let words = request.words
        let filterQuery = filter.queryString
        let exports = ["csv", "excel", "jsonl"].map { format -> HTML in
            "<a class=\"button small\" href=\"\(request.link(ConsolePage.export.path + "?format=" + format + (filterQuery.isEmpty ? "" : "&" + filterQuery)))\">\(format == "excel" ? words.excel : format.uppercased())</a>"
        }.joined(separator: " ")
        let nextLink: HTML = next.map { cursor -> HTML in
            "<p><a rel=\"next\" href=\"\(request.link(ConsolePage.log.path + "?" + [filterQuery, "after=" + cursor].filter { !$0.isEmpty }.joined(separator: "&")))\">\(words.next) →</a></p>"
        } ?? ""
        let table: HTML = rows.isEmpty ? "<p>\(words.noRows)</p>" : """
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.log)"><table><thead><tr><th scope="col">\(words.receipt)</th><th scope="col">\(words.venue)</th>
            <th scope="col">\(words.time)</th><th scope="col">\(words.method)</th><th scope="col">\(words.name)</th>
            <th scope="col">\(words.phone)</th><th scope="col">\(words.operatorWord)</th></tr></thead><tbody>\(body)</tbody></table></div>
            """
        return page(request, texts: filter.formTexts(zone: request.zone), problem: nil,
                    body: "<p>\(words.export): \(exports)</p>\n\(table)\n\(nextLink)")
    }

    /// The page: the search form filled with `texts`, then `body` (the rows), or, when a field
    /// could not be read, 400 with the form and the message naming it.
    private func page(_ request: ConsoleRequest, texts: [String: String], problem: UnreadableField?, body: HTML?) -> HTTPResponse {
        let words = request.words
        let alert: HTML = problem.map { problem -> HTML in "<p class=\"error\" role=\"alert\" id=\"problem\">\(request.describe(problem))</p>" } ?? ""
        let language: HTML = "<input type=\"hidden\" name=\"lang\" value=\"\(request.words.language.rawValue)\">"
        let content: HTML = """
            <h1>\(words.log)</h1>
            \(alert)
            <form method="get" action="\(ConsolePage.log.path)" class="search">\(LogFilter.fields(texts, words, problem: problem))
            \(request.languageQuery.isEmpty ? "" : language)
            <button type="submit">\(words.search)</button></form>
            \(body ?? "")
            """
        return request.page(problem == nil ? 200 : 400, problem == nil ? words.log : words.unreadableTitle, content)
    }
}
