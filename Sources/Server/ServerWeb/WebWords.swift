import ServerDomain
import SharedText

/// The words both sites say, in Korean and English: the visitor pages' (`ServerWords`) and the
/// console's (`ConsoleWords`) each hold these and add their own. Page titles for refusals of a
/// request (not found, method, cross-site, unavailable), the refusals of a scan by name (the
/// console's dashboard counts them), the visitor's fields and the language switch. Where the
/// kiosk says the same thing, the words are the kiosk's (`SharedWords`).
public struct WebWords: Sendable {
    /// The language of the words.
    public let language: Language
    private let kiosk: SharedWords

    /// Words in `language`.
    public init(_ language: Language) {
        self.language = language
        kiosk = SharedWords(language)
    }

    private var ko: Bool { language == .ko }

    /// 안심번호 / Safe number (the kiosk's word).
    public var safeNumber: String { kiosk.safeNumberLabel }
    /// 장소 / Venue: a table's column, a form's label.
    public var venue: String { ko ? "장소" : "Venue" }
    /// The full page's title: `만석 — 40명 중 40명 입장, 잠시 기다려 주세요` / `Full — 40 of 40 inside, please wait`.
    public func full(inside: Int, capacity: Int) -> String {
        ko ? "만석 — \(capacity)명 중 \(inside)명 입장, 잠시 기다려 주세요" : "Full — \(inside) of \(capacity) inside, please wait"
    }
    /// A refusal's title and what happened, in words a visitor at the door understands.
    public func refusal(_ reason: RefusalReason) -> (title: String, advice: String) {
        switch (language, reason) {
        case (.ko, .expired): ("코드가 만료되었습니다", "QR 코드는 몇 초마다 바뀝니다. 화면의 코드를 다시 스캔하세요.")
        case (.en, .expired): ("This code has expired", "The QR code changes every few seconds. Scan the code on the screen again.")
        case (.ko, .notYetValid): ("아직 유효하지 않은 코드입니다", "키오스크의 시계가 빠릅니다. 직원에게 알려 주세요.")
        case (.en, .notYetValid): ("This code is not valid yet", "The kiosk's clock is ahead: please tell the staff.")
        case (.ko, .unknownVenue): ("알 수 없는 장소입니다", "이 서버는 이 장소의 체크인을 받지 않습니다. 직원에게 문의하세요.")
        case (.en, .unknownVenue): ("Unknown venue", "This server does not take check-ins for this venue. Please ask the staff.")
        case (.ko, .tooManyNewDevices): ("지금은 체크인이 너무 많습니다", "15초 후 화면의 코드를 다시 스캔하거나 직원에게 체크인을 요청하세요.")
        case (.en, .tooManyNewDevices): ("Too many check-ins right now", "Scan the code on the screen again in 15 seconds, or ask the staff to check you in.")
        case (.ko, .full): ("만석입니다", "잠시 기다렸다가 누군가 나가면 다시 스캔하세요.")
        case (.en, .full): ("Full", "The venue is full: please wait, and scan again when someone has left.")
        case (.ko, .badMAC):
            ("이 장소의 체크인 코드가 아닙니다", "다른 장소의 코드이거나 코드가 바뀌었습니다. 화면의 코드를 다시 스캔하거나 \(safeNumber)를 입력하세요.")
        case (.en, .badMAC):
            ("Not a check-in code of this venue", "It is another venue's code, or it was altered. Scan the code on the screen again, or type its \(safeNumber.lowercased()).")
        case (.ko, .malformed), (.ko, .unknownVersion):
            ("이 장소의 체크인 코드가 아닙니다", "주소가 잘렸거나 잘못되었습니다. 화면의 코드를 다시 스캔하거나 \(safeNumber)를 입력하세요.")
        case (.en, .malformed), (.en, .unknownVersion):
            ("Not a check-in code of this venue", "The address is cut short or wrong. Scan the code on the screen again, or type its \(safeNumber.lowercased()).")
        }
    }
    /// The button that checks in (the safe-number form, the console's staff check-in).
    public var checkInButton: String { ko ? "체크인" : "Check in" }
    /// `30초 후에 다시 시도하세요` / `Try again in 30 s`.
    public func tryAgain(inSeconds seconds: Int64) -> String {
        let countdown = kiosk.countdown(seconds).seconds
        return ko ? "\(countdown) 후에 다시 시도하세요." : "Try again in \(countdown)."
    }
    /// The title of a 503: the ledger does not answer.
    public var unavailableTitle: String { ko ? "잠시 후 다시 시도하세요" : "Please try again in a moment" }
    /// The visitor log's fields, as the visitor form and the console label them.
    public var visitorName: String { ko ? "이름" : "Name" }
    public var visitorPhone: String { ko ? "전화번호" : "Phone number" }
    /// A name or phone number that cannot be taken.
    public var visitorInvalid: String { ko ? "이름과 전화번호를 확인하세요." : "Please check your name and phone number." }
    /// A form posted from another site's page (403): the title, then what to do.
    public var crossSiteTitle: String { ko ? "다른 사이트에서 보낸 요청입니다" : "This request came from another site" }
    public var crossSiteAdvice: String { ko ? "이 페이지의 양식에서 다시 보내세요." : "Send it again from this site's own form." }
    /// The titles of 404, 400 and 405.
    public var notFoundTitle: String { ko ? "페이지를 찾을 수 없습니다" : "Page not found" }
    public var badRequestTitle: String { ko ? "요청을 처리할 수 없습니다" : "The request cannot be handled" }
    public var methodNotAllowed: String { ko ? "허용되지 않는 요청입니다" : "Method not allowed" }
    /// The other language's name, and that language: the switch every page has.
    public var languageSwitch: (label: String, target: Language) { ko ? ("English", .en) : ("한국어", .ko) }
}
