import ServerHTTPTypes
import SharedText

/// The language of a page: `?lang=ko|en` first, else the browser's `Accept-Language` (the
/// highest-weighted of Korean and English), else English.
public enum PageLanguage {
    /// The language for `request`.
    public static func choose(_ request: HTTPRequest) -> Language {
        if let asked = request.query["lang"].flatMap(Language.init(rawValue:)) { return asked }
        return fromAcceptLanguage(request.headers["accept-language"] ?? "")
    }

    /// The best of ko and en in an `Accept-Language` value (`ko-KR,ko;q=0.9,en;q=0.8`).
    public static func fromAcceptLanguage(_ header: String) -> Language {
        var best: (language: Language, weight: Double)?
        for item in header.split(separator: ",").prefix(32) {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.filter({ $0 != " " }).lowercased() else { continue }
            let language: Language
            if tag == "ko" || tag.hasPrefix("ko-") { language = .ko } else if tag == "en" || tag.hasPrefix("en-") { language = .en } else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.filter { $0 != " " }
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)), (0...1).contains(value) { weight = value }
            }
            if weight > 0, weight > (best?.weight ?? 0) { best = (language, weight) }
        }
        return best?.language ?? .en
    }
}
