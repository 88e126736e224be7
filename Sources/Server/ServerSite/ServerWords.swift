import ServerDomain
import ServerWeb
import SharedText

/// Every word the check-in pages show, in Korean and English: their own, and those the console
/// says too (`WebWords`, below). Where the kiosk says the same thing, the words are the kiosk's
/// (`SharedWords`): the safe number is 안심번호 on the screen and on the phone.
public struct ServerWords: Sendable {
    /// The language of the words.
    public let language: Language
    /// The words the console says too.
    public let web: WebWords
    private let kiosk: SharedWords

    /// Words in `language`.
    public init(_ language: Language) {
        self.language = language
        web = WebWords(language)
        kiosk = SharedWords(language)
    }

    private var ko: Bool { language == .ko }

    // The words both sites say, by the names the pages use.
    public var venue: String { web.venue }
    public func full(inside: Int, capacity: Int) -> String { web.full(inside: inside, capacity: capacity) }
    public func refusal(_ reason: RefusalReason) -> (title: String, advice: String) { web.refusal(reason) }
    public var checkInButton: String { web.checkInButton }
    public func tryAgain(inSeconds seconds: Int64) -> String { web.tryAgain(inSeconds: seconds) }
    public var unavailableTitle: String { web.unavailableTitle }
    public var visitorName: String { web.visitorName }
    public var visitorPhone: String { web.visitorPhone }
    public var visitorInvalid: String { web.visitorInvalid }
    public var crossSiteTitle: String { web.crossSiteTitle }
    public var crossSiteAdvice: String { web.crossSiteAdvice }
    public var notFoundTitle: String { web.notFoundTitle }
    public var badRequestTitle: String { web.badRequestTitle }
    public var methodNotAllowed: String { web.methodNotAllowed }
    public var languageSwitch: (label: String, target: Language) { web.languageSwitch }

    /// 안심번호 / Safe number (the kiosk's word).
    public var safeNumber: String { kiosk.safeNumberLabel }
    public var checkedIn: String { ko ? "체크인 완료" : "Checked in" }
    /// The repeat receipt: `이미 14:03에 체크인했습니다` / `Already checked in at 14:03`.
    public func alreadyCheckedIn(at time: String) -> String { ko ? "이미 \(time)에 체크인했습니다" : "Already checked in at \(time)" }
    public var time: String { ko ? "체크인 시각" : "Checked in at" }
    public var now: String { ko ? "현재 시각" : "Time now" }
    public var showStaff: String { ko ? "입구에서 이 화면을 보여 주세요. 시계가 움직이면 실시간 화면입니다." : "Show this screen at the door. A moving clock means it is live." }

    public var fullAdvice: String { ko ? "정원이 찼습니다. 누군가 나가면 화면의 코드를 다시 스캔하세요." : "The venue is full. Scan the code on the screen again when someone has left." }
    /// The receipt's check-out button: 나가기 (퇴장) / Check out.
    public var checkOutButton: String { ko ? "퇴장하기 (나가기)" : "Check out" }
    public var checkOutHint: String { ko ? "나갈 때 누르세요." : "Press this when you leave." }
    /// `15:40에 퇴장했습니다` / `Checked out at 15:40`.
    public func checkedOut(at time: String) -> String { ko ? "\(time)에 퇴장했습니다" : "Checked out at \(time)" }
    /// `이미 15:40에 퇴장했습니다` / `Already checked out at 15:40`.
    public func alreadyCheckedOut(at time: String) -> String { ko ? "이미 \(time)에 퇴장했습니다" : "Already checked out at \(time)" }
    /// `머문 시간: 1시간 37분` / `You stayed 1 h 37 min`.
    public func stayed(minutes: Int64) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if ko { return "머문 시간: " + (hours > 0 ? "\(hours)시간 \(rest)분" : "\(rest)분") }
        return "You stayed " + (hours > 0 ? "\(hours) h \(rest) min" : "\(rest) min")
    }
    public var entered: String { ko ? "입장 시각" : "Entered at" }
    public var left: String { ko ? "퇴장 시각" : "Left at" }
    public var exitEndedAutomatically: String { ko ? "자동으로 종료된 방문입니다 (실제 퇴장 시각이 아님)." : "This visit was ended automatically (not a real time of leaving)." }
    public var noVisitTitle: String { ko ? "이 기기의 방문 기록이 없습니다" : "No visit of this phone here" }
    public var noVisitAdvice: String { ko ? "이 코드는 나가는 곳의 코드입니다. 들어올 때 입구의 코드를 스캔했는지 확인하세요." : "This is an exit code. Check in with the code at the entrance first." }


    /// The line under every refusal's buttons.
    public var askStaff: String { ko ? "도움이 필요하면 입구의 직원에게 문의하세요." : "If you need help, ask the staff at the entrance." }
    /// The safe-number form's button on a refusal.
    public var typeSafeNumber: String { ko ? "\(safeNumber) 입력하기" : "Type the safe number" }
    /// The name of the site in a page's band when no venue is known.
    public var siteName: String { ko ? "QR 체크인" : "QR check-in" }

    /// An aged receipt: `2시간 전에 체크인했습니다` / `Checked in 2 h ago`.
    public func checkedIn(ago seconds: Int64) -> String {
        let ago = Self.ago(seconds, ko: ko)
        return ko ? "\(ago) 전에 체크인했습니다" : "Checked in \(ago) ago"
    }
    /// The note under an aged receipt.
    public var agedNote: String {
        ko ? "오래된 체크인입니다. 입장하려면 화면의 코드를 다시 스캔하세요." : "This check-in is not recent. To enter, scan the code on the screen again."
    }

    /// `11분` / `11 min`, `2시간` / `2 h`, `3일` / `3 days`: the largest whole unit.
    static func ago(_ seconds: Int64, ko: Bool) -> String {
        let seconds = max(0, seconds)
        switch seconds {
        case ..<3600: let minutes = max(1, seconds / 60); return ko ? "\(minutes)분" : "\(minutes) min"
        case ..<(2 * 86_400): let hours = seconds / 3600; return ko ? "\(hours)시간" : "\(hours) h"
        default: let days = seconds / 86_400; return ko ? "\(days)일" : "\(days) days"
        }
    }

    public var formTitle: String { ko ? "\(safeNumber)로 체크인" : "Check in with the safe number" }
    public var formHint: String { ko ? "코드 아래에 표시된 \(safeNumber)를 입력하세요 (예: 12가34나)." : "Type the safe number shown under the code (like 12가34나)." }
    public var wrongSafeNumber: String { ko ? "\(safeNumber)가 맞지 않습니다. 화면을 확인하고 다시 입력하세요." : "That safe number does not match. Check the screen and type it again." }

    public var tooManyTitle: String { ko ? "시도 횟수가 너무 많습니다" : "Too many tries" }
    /// `15:42:10 이후에 다시 시도하세요.` / `Try again after 15:42:10.`: true without a script.
    public func tryAgain(after time: String) -> String { ko ? "\(time) 이후에 다시 시도하세요." : "Try again after \(time)." }
    /// The live countdown after it (the script fills in the seconds and shows it).
    public var timeLeft: String { kiosk.countdown(0).label }
    /// What the countdown says once it reaches zero.
    public var tryNow: String { ko ? "지금 다시 시도할 수 있습니다." : "You can try again now." }

    public func unavailable(at time: String) -> String {
        ko ? "체크인을 저장할 수 없어 기록하지 않았습니다 (\(time)). 잠시 후 코드를 다시 스캔하세요." : "The check-in could not be stored, so none was recorded (\(time)). Scan the code again in a moment."
    }

    public var visitorTitle: String { ko ? "방문자 정보" : "Visitor details" }
    public var visitorHint: String { ko ? "이 장소는 출입 명부를 작성합니다. 이 기기에 저장되어 다음에는 묻지 않습니다." : "This venue keeps a visitor log. Your details are remembered on this device for next time." }

    // The privacy notice of the visitor form (Korea's PIPA, art. 15 and 22: purpose, items,
    // retention, the right to refuse and what refusing means; who is responsible; where to complain).
    public var privacyTitle: String { ko ? "개인정보 수집·이용 안내" : "How your details are used" }
    public var privacyController: String { ko ? "개인정보처리자" : "Controller" }
    public var privacyPurpose: String { ko ? "목적" : "Purpose" }
    public var privacyPurposeText: String {
        ko ? "출입 기록 (감염병 확산 등으로 보건 당국이 요청할 때 방문자에게 연락하기 위해서만 사용)"
            : "A visitor log, used only to contact visitors if a health authority asks (for example during an outbreak)"
    }
    public var privacyItems: String { ko ? "항목" : "Details" }
    public func privacyItemsText(_ fields: VisitorFields) -> String {
        var items: [String] = []
        if fields.contains(.name) { items.append(visitorName) }
        if fields.contains(.phone) { items.append(visitorPhone) }
        items.append(ko ? "체크인 시각" : "time of check-in")
        return items.joined(separator: ", ")
    }
    public var privacyRetention: String { ko ? "보유 기간" : "Kept for" }
    public func privacyRetentionText(_ seconds: Int64) -> String {
        let days = seconds / 86_400, hours = seconds / 3600
        let period = seconds % 86_400 == 0 ? (ko ? "\(days)일" : "\(days) day\(days == 1 ? "" : "s")")
            : (ko ? "\(hours)시간" : "\(hours) hour\(hours == 1 ? "" : "s")")
        return ko ? "체크인 후 \(period), 그 후 자동 삭제" : "\(period) after the check-in, then deleted automatically"
    }
    public var privacyRefuse: String { ko ? "거부할 권리" : "Your right to refuse" }
    public var privacyRefuseText: String {
        ko ? "동의하지 않을 수 있습니다. 그 경우 이 양식으로는 체크인할 수 없으니 입구의 직원에게 다른 방법을 문의하세요."
            : "You may refuse. You then cannot check in with this form: ask the staff at the entrance for another way."
    }
    public var privacyComplain: String { ko ? "문의·신고" : "Questions and complaints" }
    public func privacyComplainText(controller: String) -> String {
        ko ? "\(controller)에 문의하거나, 개인정보침해 신고센터(국번 없이 118, privacy.kisa.or.kr)에 신고할 수 있습니다."
            : "Ask \(controller), or complain to Korea's Personal Information Infringement Report Center (118, privacy.kisa.or.kr)."
    }
    public var privacyAgree: String { ko ? "위 내용에 동의하고 체크인" : "Agree and check in" }

    public var formExpired: String { ko ? "시간이 지났습니다. 화면의 코드를 다시 스캔하세요." : "This form has expired. Scan the code on the screen again." }
    public var formUsed: String { ko ? "이 양식은 이미 제출되었습니다. 화면의 코드를 다시 스캔하세요." : "This form was already sent. Scan the code on the screen again." }
    public var formOtherDevice: String {
        ko ? "코드를 스캔한 휴대전화에서 양식을 작성하세요 (쿠키가 꺼져 있으면 켜 주세요)." : "Fill in the form on the phone that scanned the code (with cookies on)."
    }
    public var notSafeNumberShape: String {
        ko ? "\(safeNumber)는 숫자 두 자리, 글자, 숫자 두 자리, 글자입니다 (예: 12가34나)." : "A safe number is two digits, a letter, two digits, a letter (like 12가34나)."
    }

    public var notFoundAdvice: String { ko ? "키오스크 화면의 코드를 스캔하세요." : "Scan the code on the kiosk's screen." }
    public var receiptMissing: String { ko ? "이 기기의 체크인 기록이 아닙니다." : "This is not a check-in of this device." }
    public var tooLarge: String { ko ? "입력이 너무 깁니다" : "The form is too large" }
}
