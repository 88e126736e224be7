import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// `/admin/erase`: find a visitor by a receipt number (every check-in of its device, else of
/// its phone; or that check-in alone) or a phone number, see what would be erased (per day
/// and venue, as `erase` shows it), then erase it with a second, confirmed POST. The preview and
/// the erasure are each audited (`Erasure`): the preview before it is shown, the erasure in its
/// transaction.
struct EraseHandler {
    let parts: ConsoleSite.Parts

    func respond(to request: ConsoleRequest) async -> HTTPResponse {
        let words = request.words
        let fields = request.http.method == "POST" ? request.http.form : request.http.query
        let selection: EraseSelection
        do throws(UnreadableField) {
            selection = try EraseSelection(fields)
        } catch {
            return page(request, status: 400, result: "<p class=\"error\" role=\"alert\">\(request.describe(error))</p>")
        }
        let (receipt, phone, only) = (selection.receipt, selection.phone, selection.only)
        guard receipt != nil || phone != nil else { return page(request, status: request.http.method == "POST" ? 400 : 200, result: "") }
        do throws(LedgerError) {
            let subject: ErasureSubject
            if let receipt {
                guard let checkIn = try await parts.visits.find(id: receipt) else { return page(request, status: 404, result: "<p>\(words.noRows)</p>") }
                if only { subject = .checkIn(receipt) } else if let device = checkIn.device { subject = .device(device) }
                else if let digits = checkIn.entry.visitor?.phone { subject = .phone(digits) } else { subject = .checkIn(receipt) }
            } else {
                subject = .phone(phone!)
            }
            let described = receipt.map { "receipt \($0)" + (only ? " only" : "") } ?? "phone …\(phone!.suffix(4))"
            let erasure = Erasure(trail: request.trail(parts), ledger: parts.erasure)
            if request.http.method == "POST" {
                let erased = try await erasure.erase(subject, described: described)
                return page(request, status: 200, result: "<p class=\"ok\" role=\"status\">\(words.erased(erased))</p>")
            }
            let checkIns = try await erasure.preview(subject, described: described)
            guard !checkIns.isEmpty else { return page(request, status: 200, result: "<p>\(words.noRows)</p>") }
            var byDay: [String: Int] = [:]
            for checkIn in checkIns { byDay["\(LocalTime(checkIn.time, in: parts.zone).date) \(checkIn.venue.rawValue)", default: 0] += 1 }
            let lines = byDay.sorted { $0.key < $1.key }.map { day -> HTML in "<li>\(day.key): \(day.value)</li>" }.joined()
            let hidden: HTML = (receipt.map { receipt -> HTML in "<input type=\"hidden\" name=\"checkin\" value=\"\(receipt)\">" }
                ?? "<input type=\"hidden\" name=\"phone\" value=\"\(phone!)\">")
                + (only ? "<input type=\"hidden\" name=\"only\" value=\"yes\">" : "")
            let result: HTML = """
                <h2>\(words.preview)</h2><p>\(words.willErase(checkIns.count))</p><ul>\(lines)</ul>
                <form method="post" action="\(request.link(ConsolePage.erase.path))">\(request.hiddenToken)\(hidden)
                <button type="submit" class="danger">\(words.confirmErase)</button></form>
                """
            return page(request, status: 200, result: result)
        } catch {
            return request.unavailable()
        }
    }

    private func page(_ request: ConsoleRequest, status: Int, result: HTML) -> HTTPResponse {
        let words = request.words
        let content: HTML = """
            <h1>\(words.erase)</h1>
            <p class="note">\(words.eraseHint)</p>
            <form method="get" action="\(ConsolePage.erase.path)">
            <label for="checkin">\(words.receipt)</label><input id="checkin" name="checkin" inputmode="numeric">
            <label class="check"><input type="checkbox" name="only" value="yes"> \(words.onlyThis)</label>
            <label for="phone">\(words.phone)</label><input id="phone" name="phone" type="tel">
            <button type="submit">\(words.preview)</button></form>
            \(result)
            """
        return request.page(status, words.erase, content)
    }
}
