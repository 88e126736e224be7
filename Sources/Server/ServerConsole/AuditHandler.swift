import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `/admin/audit`: the audit log, newest first, 100 entries a page, paged by id (keyset).
/// Read-only: no role can change or delete an entry (only `audit-retention` does).
struct AuditHandler {
    let parts: ConsoleSite.Parts
    static let pageSize = 100

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        var before: Int64?
        if let text = request.query("before") {
            // A cursor it cannot read is refused, not taken for the first page.
            guard text.utf8.allSatisfy({ (48...57).contains($0) }), let id = Int64(text) else {
                return request.unreadable(UnreadableField(name: "before", text: text))
            }
            before = id
        }
        var entries: [AuditEntry] = []
        do throws(LedgerError) {
            entries = try await parts.audit.audit(AuditQuery(before: before, limit: Self.pageSize + 1))
        } catch {
            return request.unavailable()
        }
        let more = entries.count > Self.pageSize
        entries = Array(entries.prefix(Self.pageSize))
        let rows = entries.map { entry -> HTML in
            "<tr><td>\(entry.id ?? 0)</td><td>\(request.local(entry.time))</td><td>\(entry.actor)</td><td>\(entry.action.rawValue)</td>"
                + "<td>\(entry.subject ?? "")</td><td>\(entry.detail ?? "")</td><td>\(entry.rows.map(String.init) ?? "")</td>"
                + "<td>\(entry.source ?? "")</td></tr>"
        }.joined()
        let next: HTML = more ? entries.last?.id.map { id -> HTML in
            "<p><a rel=\"next\" href=\"\(request.link(ConsolePage.audit.path, "before=\(id)"))\">\(words.next) →</a></p>"
        } ?? "" : ""
        let content: HTML = """
            <h1>\(words.audit)</h1>
            <div class="scroll" tabindex="0" role="region" aria-label="\(words.audit)"><table><thead><tr><th scope="col">id</th><th scope="col">\(words.time)</th><th scope="col">\(words.actor)</th>
            <th scope="col">\(words.action)</th><th scope="col">\(words.subject)</th><th scope="col">\(words.detail)</th>
            <th scope="col">\(words.rows)</th><th scope="col">\(words.source)</th></tr></thead><tbody>\(rows)</tbody></table></div>
            \(next)
            """
        return request.page(200, words.audit, content)
    }
}
