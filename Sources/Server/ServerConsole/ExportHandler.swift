import Dispatch
import ServerDomain
import ServerHTTPTypes
import ServerReports
import SharedDomain

/// `/admin/export?format=csv|excel|jsonl`: the visitor log as `checkins` writes it (the same
/// columns, the same escaping), filtered as the log page is; `excel` is CSV with a byte order
/// mark and phone numbers as text. Streamed (constant memory); audited with its filter and row count.
struct ExportHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) -> HTTPResponse {
        let formatName = request.query("format") ?? "csv"
        let format: CheckInExport.Format
        switch formatName {
        case "csv", "excel": format = .csv
        case "jsonl": format = .jsonl
        default: return request.message(400, request.words.web.badRequestTitle, "format: csv, excel or jsonl")
        }
        let filter: LogFilter
        do throws(UnreadableField) {
            filter = try LogFilter(request, also: ["format"])
        } catch {
            // Refused whole: nothing read, nothing exported, so no export to audit. The log
            // page shows the same filter in its form, to be mended there.
            let texts = LogFilter.queryString(LogFilter.texts(request))
            return request.unreadable(error, back: (ConsolePage.log.path + (texts.isEmpty ? "" : "?" + texts), request.words.log))
        }
        let (type, suffix) = format == .jsonl ? ("application/x-ndjson; charset=utf-8", "jsonl") : ("text/csv; charset=utf-8", "csv")
        let name = "checkins-\(LocalTimeName.of(request.now, parts.zone)).\(suffix)"
        let headers = [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\"")] + ConsoleRequest.headers
        guard request.http.method != "HEAD" else { return HTTPResponse(status: 200, headers: headers) }
        // Streamed: the ledger is read on a thread of its own while the client takes the rows,
        // never more than a few parts in memory; the audit entry, with the row count, follows
        // the last row (or says where the export stopped).
        let stream = ExportStream()
        let ledger = parts.ledger
        let zone = parts.zone
        DispatchQueue.global().async {
            var export = CheckInExport(format: format, excel: formatName == "excel", zone: zone)
            var part = Array(export.header.utf8)
            var rows = 0
            var failure: String?
            let write: (CheckIn) -> Bool = { checkIn in
                export.write(checkIn, to: &part)
                rows += 1
                guard part.count >= ExportStream.partBytes else { return true }
                defer { part.removeAll(keepingCapacity: true) }
                if stream.send(part) { return true }
                failure = "client left"
                return false
            }
            do throws(LedgerError) {
                if let receipt = filter.receipt {
                    if let checkIn = try ledger.find(id: receipt), filter.admits(checkIn) { _ = write(checkIn) }
                } else {
                    try ledger.export(filter.query, write)
                }
            } catch {
                failure = "ledger failed"
            }
            if failure == nil, !part.isEmpty, !stream.send(part) { failure = "client left" }
            stream.finish()
            let ended = failure
            _ = try? ledger.appendAudit(AuditEntry(time: request.now, actor: request.actor, action: .export, subject: "visitor log",
                                                   detail: filter.detail + " format=\(formatName)" + (ended.map { " (incomplete: \($0))" } ?? ""),
                                                   rows: rows, source: request.source))
        }
        return HTTPResponse(status: 200, headers: headers, stream: stream)
    }
}

/// `20261203-1403`: a moment in a file name.
enum LocalTimeName {
    static func of(_ time: WallTime, _ zone: any LocalTimeZone) -> String {
        let local = LocalTime(time, in: zone)
        return local.date.filter { $0 != "-" } + "-" + local.minute.filter { $0 != ":" }
    }
}
