import ServerDomain
import ServerHTTPTypes
import ServerReports
import SharedDomain

/// `/admin/export?format=csv|excel|jsonl`: the visitor log as `checkins` writes it (the same
/// columns, the same escaping), filtered as the log page is; `excel` is CSV with a byte order
/// mark and phone numbers as text. Audited with its filter and row count.
struct ExportHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) -> HTTPResponse {
        let formatName = request.query("format") ?? "csv"
        let format: CheckInExport.Format
        switch formatName {
        case "csv", "excel": format = .csv
        case "jsonl": format = .jsonl
        default: return request.message(400, request.words.site.badRequestTitle, "format: csv, excel or jsonl")
        }
        let filter = LogFilter(request)
        var export = CheckInExport(format: format, excel: formatName == "excel", zone: parts.zone)
        var body = Array(export.header.utf8)
        var rows = 0
        do throws(LedgerError) {
            if let receipt = filter.receipt {
                if let checkIn = try parts.ledger.find(id: receipt) {
                    export.write(checkIn, to: &body)
                    rows = 1
                }
            } else {
                try parts.ledger.export(filter.query) { checkIn in
                    export.write(checkIn, to: &body)
                    rows += 1
                    return true
                }
            }
            try parts.ledger.appendAudit(AuditEntry(time: request.now, actor: request.actor, action: .export, subject: "visitor log",
                                                    detail: filter.detail + " format=\(formatName)", rows: rows, source: request.source))
        } catch {
            return request.unavailable()
        }
        let (type, suffix) = format == .jsonl ? ("application/x-ndjson; charset=utf-8", "jsonl") : ("text/csv; charset=utf-8", "csv")
        let name = "checkins-\(LocalTimeName.of(request.now, parts.zone)).\(suffix)"
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\"")]
                                + ConsoleRequest.headers, body: request.http.method == "HEAD" ? [] : body)
    }
}

/// `20261203-1403`: a moment in a file name.
enum LocalTimeName {
    static func of(_ time: WallTime, _ zone: any LocalTimeZone) -> String {
        let local = LocalTime(time, in: zone)
        return local.date.filter { $0 != "-" } + "-" + local.minute.filter { $0 != ":" }
    }
}
