import ServerDomain
import ServerHTTPTypes
import ServerReports
import SharedDomain

/// `/admin/export?format=csv|excel|jsonl`: the visitor log as `checkins` writes it (the same
/// columns, the same escaping), filtered as the log page is; `excel` is CSV with a byte order
/// mark and phone numbers as text. Streamed (constant memory); audited with its filter, format and
/// row count before the first row leaves (`VisitorLogExport`): an export that cannot be audited
/// is a 503 and sends nothing.
struct ExportHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
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
        let audited: AuditedExport
        do throws(LedgerError) {
            // A receipt number is looked up alone, its check-in handed out only within the rest of the filter.
            let selection: VisitorLogExport.Selection = filter.receipt.map { .receipt($0, within: filter.query) } ?? .query(filter.query)
            audited = try await VisitorLogExport(trail: request.trail(parts), log: parts.log).begin(selection, subject: "visitor log",
                                                                                                   detail: filter.detail + " format=\(formatName)")
        } catch {
            return request.unavailable()
        }
        // Streamed: the ledger is read a page at a time by a task of its own while the client
        // takes the rows, never more than a few parts in memory, no more rows than the entry counted.
        let stream = ExportStream()
        let zone = parts.zone
        Task {
            let export = CheckInExport(format: format, excel: formatName == "excel", zone: zone)
            var first = PageBytes(export, capacity: ExportStream.partBytes)
            first.bytes.append(contentsOf: export.header.utf8)
            // Stopped: the client left.
            var stopped = false
            do throws(LedgerError) {
                // A page's lines are written where the ledger reads its rows; a part is sent
                // once it holds partBytes (a page of the log is about one).
                let rest = try await audited.pages(into: consume first, CheckInExport.fold) { page in
                    guard page.bytes.count >= ExportStream.partBytes else { return true }
                    defer { page.bytes.removeAll(keepingCapacity: true) }
                    stopped = !(await stream.send(page.bytes))
                    return !stopped
                }
                if !stopped, !rest.bytes.isEmpty { _ = await stream.send(rest.bytes) }
            } catch {
                // The ledger failed: the file ends short.
            }
            stream.finish()
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
