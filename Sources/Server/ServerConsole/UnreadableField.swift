import ServerHTTPTypes
import ServerWeb

/// A query field a console page could not read (a filter, a page cursor, a name the page does
/// not take): the page answers 400 naming it and does nothing else, never reads the rest as if
/// it were not there (a dropped filter made an export of the whole log).
struct UnreadableField: Error, Equatable, Sendable {
    /// The field's name as sent (`from`, `venue`, …).
    let name: String
    /// What was sent.
    let text: String
}

extension ConsoleRequest {
    /// The message naming `field`, what it was and what it takes (ko/en), for a page's alert.
    func describe(_ field: UnreadableField) -> String {
        // What was sent, shortened: a query may hold kilobytes.
        func shown(_ text: String) -> String { text.count > 64 ? String(text.prefix(64)) + "…" : text }
        return "\(words.fieldLabel(field.name)) (\(shown(field.name))=\(shown(field.text))): \(words.fieldTakes(field.name))"
    }

    /// 400: `field` could not be read; nothing was read, exported or audited. `back`: the
    /// page whose form can mend it (the log page for an export).
    func unreadable(_ field: UnreadableField, back: (path: String, title: String)? = nil) -> HTTPResponse {
        page(400, words.unreadableTitle, "<h1>\(words.unreadableTitle)</h1>"
            + "<p class=\"error\" role=\"alert\" id=\"problem\">\(describe(field))</p>"
            + (back.map { back -> HTML in "<p><a href=\"\(link(back.path))\">\(back.title)</a></p>" } ?? ""))
    }
}
