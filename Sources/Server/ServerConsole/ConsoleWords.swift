import ServerDomain
import ServerWeb
import SharedDomain
import SharedText

/// Every word the console shows, in Korean and English; where the visitor pages or the CLI say
/// the same thing, theirs (`WebWords`, the words both sites say; the CLI's column and action names).
public struct ConsoleWords: Sendable {
    public let language: Language
    /// The words the visitor pages say too.
    public let web: WebWords

    /// Words in `language`.
    public init(_ language: Language) {
        self.language = language
        web = WebWords(language)
    }

    private var ko: Bool { language == .ko }

    var console: String { ko ? "운영 콘솔" : "Operator console" }

    // Webhooks (issue 40): the CLI's words (`webhook add`, `--events`, `--personal`).
    var webhooks: String { ko ? "웹훅" : "Webhooks" }
    var webhook: String { ko ? "웹훅" : "Webhook" }
    var webhookURL: String { ko ? "받는 주소 (URL)" : "Receiver URL" }
    var webhookEvents: String { ko ? "이벤트" : "Events" }
    var webhookVenues: String { ko ? "장소" : "Venues" }
    var everyVenue: String { ko ? "모든 장소" : "every venue" }
    var webhookVenuesHint: String { ko ? "쉼표로 구분 (비우면 모든 장소)" : "comma-separated (empty: every venue)" }
    var personalData: String { ko ? "이름과 전화번호 포함" : "Names and phones" }
    var personalWarning: String {
        ko ? "켜면 받는 시스템에 방문자의 이름과 전화번호가 전달됩니다 (감사 기록에 남습니다)."
            : "When on, the receiving system gets visitors' names and phones (this is in the audit log)."
    }
    var webhookExists: String { ko ? "같은 이름의 웹훅이 있습니다." : "A webhook of that name exists." }
    var attemptTime: String { ko ? "시각" : "Time" }
    var addWebhook: String { ko ? "웹훅 추가" : "Add a webhook" }
    var secretOnce: String { ko ? "이 비밀키는 지금 한 번만 보입니다. 받는 쪽에 전하세요:" : "This secret is shown once. Give it to the receiver:" }
    var sendTest: String { ko ? "시험 전송" : "Send a test" }
    var redeliverFailed: String { ko ? "실패분 다시 보내기" : "Redeliver failed" }
    var rotateSecret: String { ko ? "비밀키 교체" : "Rotate secret" }
    var outbox: String { ko ? "보낼 이벤트" : "Outbox" }
    var pendingWord: String { ko ? "대기" : "pending" }
    var deliveredWord: String { ko ? "전달됨" : "delivered" }
    var failedWord: String { ko ? "실패" : "failed" }
    var recentDeliveries: String { ko ? "최근 전송" : "Recent deliveries" }
    var eventWord: String { ko ? "이벤트" : "Event" }
    var statusWord: String { ko ? "응답 코드" : "Status" }
    var durationWord: String { ko ? "걸린 시간 (ms)" : "Time (ms)" }
    var answerWord: String { ko ? "응답" : "Answer" }
    var noAnswer: String { ko ? "응답 없음" : "no answer" }
    var noWebhooks: String { ko ? "웹훅이 없습니다." : "No webhooks yet." }
    var badWebhook: String { ko ? "이름(영문·숫자 . _ - 64자까지), http(s) 주소, 이벤트를 확인하세요." : "Check the name (up to 64 letters, digits, . _ -), the http(s) URL and the events." }
    var webhooksUnavailable: String { ko ? "이 원장은 웹훅을 지원하지 않습니다." : "This ledger keeps no webhooks." }
    func disabledBecause(_ reason: String) -> String {
        if reason.contains("410") { return ko ? "꺼짐: 받는 쪽이 410 Gone으로 응답" : "Disabled: the receiver answered 410 Gone" }
        return ko ? "꺼짐 (\(reason.replacing("by ", with: "")))" : "Disabled (\(reason))"
    }
    func eventName(_ type: WebhookEventType) -> String {
        switch type {
        case .checkin: ko ? "입장" : "check-in"
        case .checkout: ko ? "퇴장" : "check-out"
        case .refused: ko ? "거절" : "refused"
        case .full: ko ? "정원 초과" : "full"
        case .kiosk: ko ? "키오스크" : "kiosk"
        case .test: ko ? "시험" : "test"
        }
    }
    var signIn: String { ko ? "로그인" : "Sign in" }
    var signOut: String { ko ? "로그아웃" : "Sign out" }
    var user: String { ko ? "사용자" : "User" }
    var password: String { ko ? "비밀번호" : "Password" }
    var signInFailed: String { ko ? "사용자 이름이나 비밀번호가 맞지 않습니다." : "The user name or password is wrong." }
    func throttled(_ seconds: Int64) -> String { web.tryAgain(inSeconds: seconds) }
    var busy: String { ko ? "로그인이 몰리고 있습니다. 잠시 후 다시 시도하세요." : "Many sign-ins at once. Try again in a moment." }
    var formStale: String { ko ? "양식이 만료되었습니다. 페이지를 새로 고친 후 다시 보내세요." : "This form has expired. Reload the page and send it again." }
    var forbidden: String { ko ? "이 역할로는 볼 수 없는 페이지입니다" : "Your role cannot open this page" }
    var notFound: String { web.notFoundTitle }

    var dashboard: String { ko ? "현황" : "Dashboard" }
    var inside: String { ko ? "현재 입장객" : "Who is inside" }
    var staffCheckIn: String { ko ? "직원 체크인" : "Staff check-in" }
    var log: String { ko ? "출입 기록" : "Visitor log" }
    var export: String { ko ? "내보내기" : "Export" }
    var erase: String { ko ? "삭제" : "Erase" }
    var users: String { ko ? "계정" : "Accounts" }
    var audit: String { ko ? "감사 기록" : "Audit log" }
    var kiosks: String { ko ? "키오스크" : "Kiosks" }
    var kiosk: String { ko ? "키오스크" : "Kiosk" }
    var kioskNone: String { ko ? "아직 보고한 키오스크가 없습니다 (qrcheckin report의 report-to를 이 서버로 설정하세요)." : "No kiosk has reported yet (set qrcheckin report's report-to to this server)." }
    var kioskNote: String { ko ? "각 키오스크의 마지막 보고로 판단합니다. 보고에는 방문자 정보가 없습니다." : "Judged from each kiosk's latest report. Reports carry no visitor data." }
    var kioskUnknown: String { ko ? "그런 키오스크가 보고한 적이 없습니다." : "No such kiosk has reported." }
    var kioskNoProblem: String { ko ? "문제 없음" : "No problem" }
    var kioskProblems: String { ko ? "문제" : "Problems" }
    var kioskWindow: String { ko ? "표시 구간 / 기대 구간" : "Window shown / expected" }
    var kioskLastReport: String { ko ? "마지막 보고" : "Last report" }
    var kioskVersion: String { ko ? "버전, 시계" : "Version, clock" }
    var kioskModes: String { ko ? "모드" : "Modes" }
    var kioskSteer: String { ko ? "마지막 원격 조정" : "Latest steer" }
    var kioskPaused: String { ko ? "일시정지" : "paused" }
    var kioskRotating: String { ko ? "자동 교체" : "rotating" }
    var kioskPending: String { ko ? "적용 대기 중" : "pending" }
    var kioskPause: String { ko ? "일시정지" : "Pause" }
    var kioskResume: String { ko ? "다시 시작" : "Resume" }
    var kioskShakeOn: String { ko ? "흔들기 켜기" : "Shake on" }
    var kioskShakeOff: String { ko ? "흔들기 끄기" : "Shake off" }
    var kioskNewCode: String { ko ? "지금 새 코드" : "New code now" }
    var kioskForget: String { ko ? "삭제" : "Forget" }
    func kioskApplied(_ time: String) -> String { ko ? "\(time)에 적용됨" : "applied \(time)" }
    func kioskShakeMode(_ mode: ShakeMode) -> String {
        switch mode {
        case .on: ko ? "흔들기 켬" : "shake on"
        case .off: ko ? "흔들기 끔" : "shake off"
        }
    }
    /// What a steer asked, in words: `pause, shake off, new code`.
    func kioskAsked(_ steer: KioskSteer) -> String {
        var parts: [String] = []
        if let refresh = steer.refresh { parts.append(refresh == .paused ? kioskPause : kioskResume) }
        if let shake = steer.shake { parts.append(shake == .on ? kioskShakeOn : kioskShakeOff) }
        if steer.newCode { parts.append(kioskNewCode) }
        return parts.joined(separator: ", ")
    }
    func kioskAgo(_ seconds: Int64) -> String { ko ? "\(seconds)초 전" : "\(seconds) s ago" }
    func kioskSkew(_ seconds: Int64) -> String {
        if seconds == 0 { return ko ? "시계 정확" : "clock on time" }
        return ko ? "시계 \(abs(seconds))초 \(seconds > 0 ? "빠름" : "느림")" : "clock \(abs(seconds)) s \(seconds > 0 ? "fast" : "slow")"
    }
    func kioskState(_ state: KioskState) -> String {
        switch state {
        case .ok: ko ? "정상 (ok)" : "ok"
        case .late: ko ? "지연 (late)" : "late"
        case .offline: ko ? "오프라인 (offline)" : "offline"
        }
    }

    var venue: String { web.venue }
    var todayCheckIns: String { ko ? "오늘 체크인" : "Check-ins today" }
    var lastHour: String { ko ? "최근 1시간" : "Last hour" }
    var insideNow: String { ko ? "현재 입장" : "Inside now" }
    var capacity: String { ko ? "정원" : "capacity" }
    var refusals: String { ko ? "오늘 거절된 스캔" : "Refused scans today" }
    var reason: String { ko ? "사유" : "Reason" }
    var count: String { ko ? "건수" : "Count" }
    var byHour: String { ko ? "오늘 시간대별 체크인" : "Check-ins today by hour" }
    var allVenues: String { ko ? "모든 장소" : "Every venue" }
    var noVenue: String { ko ? "장소 없음" : "No venue" }
    var refusedToday: String { ko ? "오늘 거절" : "Refused today" }
    var full: String { ko ? "만원" : "full" }
    var nearlyFull: String { ko ? "거의 만원" : "nearly full" }
    func asOf(_ time: String) -> String { ko ? "\(time) 기준 (30초마다 새로 고침)" : "As of \(time) (refreshed every 30 s)" }
    var chartPeople: String { ko ? "입장 인원" : "inside" }
    var chartHours: String { ko ? "시각 (시)" : "hour of day" }
    func capacityOf(_ capacity: Int) -> String { ko ? "정원 \(capacity)" : "capacity \(capacity)" }
    func curveTitle(_ venue: String) -> String { ko ? "\(venue) 오늘 입장 인원" : "Inside today at \(venue)" }
    var curveCaption: String { ko ? "오늘 입장 인원: 5분마다 입장에서 퇴장을 뺀 수" : "Inside today: entries minus exits, every 5 minutes" }
    func curveSummary(peak: Int, at time: String, now: Int, capacity: Int?) -> String {
        let of = capacity.map { ko ? " (정원 \($0))" : " of a capacity of \($0)" } ?? ""
        return ko ? "자정부터 5분마다 센 입장 인원. 최대 \(peak)명 (\(time)), 현재 \(now)명\(of)."
            : "People inside every 5 minutes since midnight: at most \(peak) (at \(time)), \(now) now\(of)."
    }
    var curveTable: String { ko ? "시간대별 표" : "As a table, by hour" }
    var hour: String { ko ? "시각" : "Hour" }
    var insideAtStart: String { ko ? "정각의 입장 인원" : "Inside at its start" }
    var mostInside: String { ko ? "최대 인원" : "Most inside" }
    var entries: String { ko ? "입장" : "Entries" }
    var exits: String { ko ? "퇴장" : "Exits" }
    var ledgerHealth: String { ko ? "기록 저장소" : "Ledger" }
    var healthy: String { ko ? "정상" : "answering" }
    var outage: String { ko ? "응답 없음: 체크인이 503으로 응답됩니다" : "not answering: check-ins are answered 503" }
    var total: String { ko ? "보관 중인 체크인" : "Check-ins kept" }
    var none: String { ko ? "없음" : "none" }
    var all: String { ko ? "전체" : "all" }
    var printRoll: String { ko ? "인쇄" : "Print" }
    /// What the roll lists: open visits, as `inside` and the occupancy endpoint count them.
    var insideNote: String {
        ko ? "입장한 뒤 아직 퇴장 기록이 없는 방문입니다. 최대 체류 시간이 지난 방문은 자동으로 퇴장 처리됩니다."
            : "Every visit with an entry and no exit yet. A visit past its venue's longest stay has ended by itself."
    }

    var time: String { ko ? "시각" : "Time" }
    var receipt: String { ko ? "영수증 번호" : "Receipt" }
    var method: String { ko ? "방법" : "Method" }
    var name: String { web.visitorName }
    var phone: String { web.visitorPhone }
    var operatorWord: String { ko ? "처리자" : "Operator" }
    var from: String { ko ? "부터" : "From" }
    var until: String { ko ? "까지" : "Until" }
    var search: String { ko ? "검색" : "Search" }
    var next: String { ko ? "다음" : "Next" }
    var noRows: String { ko ? "해당하는 기록이 없습니다." : "Nothing matches." }
    var format: String { ko ? "형식" : "Format" }
    var unreadableTitle: String { ko ? "검색 조건을 읽을 수 없습니다" : "The search could not be read" }
    /// A query field's label, as the search form names it.
    func fieldLabel(_ name: String) -> String {
        switch name {
        case "venue": venue
        case "from": from
        case "until": until
        case "receipt", "checkin": receipt
        case "phone": phone
        case "only": onlyThis
        case "after", "before": next
        default: ko ? "알 수 없는 항목" : "Unknown field"
        }
    }
    /// What a query field takes.
    func fieldTakes(_ name: String) -> String {
        switch name {
        case "venue": ko ? "장소 ID는 A-Z, 0-9, -, . 로 된 1-16자입니다." : "a venue id is 1-16 of A-Z, 0-9, - and ."
        case "from", "until":
            ko ? "날짜와 시각을 2026-12-03T14:00 (이 서버의 현지 시각) 또는 시간대를 붙여 2026-12-03T14:00:00+09:00 처럼 쓰세요."
                : "a date and time, 2026-12-03T14:00 (this server's local time) or with a zone, 2026-12-03T14:00:00+09:00"
        case "receipt", "checkin": ko ? "영수증 번호는 숫자입니다." : "a receipt number is digits"
        case "phone":
            ko ? "전화번호는 7-15자리 숫자입니다 (010-1234-5678). 영수증 번호와 함께 쓰지 않습니다."
                : "a phone number is 7-15 digits (010-1234-5678), and goes without a receipt number"
        case "only": ko ? "영수증 번호와 함께 체크 표시만 합니다." : "a check box that goes with a receipt number"
        case "after", "before": ko ? "이 콘솔의 다음 페이지 링크가 아닙니다." : "not a next-page link of this console"
        default: ko ? "이 페이지에서 쓰지 않는 항목입니다." : "this page takes no such field"
        }
    }
    var excel: String { ko ? "엑셀용 CSV" : "CSV for Excel" }

    var checkInButton: String { web.checkInButton }
    var checkOut: String { ko ? "직원 체크아웃" : "Staff check-out" }
    var checkOutOne: String { ko ? "방문 하나" : "One visit" }
    var checkOutEveryone: String { ko ? "장소의 모든 방문" : "Every visit at a venue" }
    var cancel: String { ko ? "취소" : "Cancel" }
    var checkoutWhat: String { ko ? "영수증 번호나 장소를 고르세요." : "Choose a receipt number or a venue." }
    func noSuchCheckIn(_ id: Int64) -> String { ko ? "영수증 번호 \(id)의 체크인이 없습니다." : "There is no check-in with receipt \(id)." }
    func checkedOutVisit(_ id: Int64) -> String { ko ? "퇴장 처리했습니다 (영수증 번호 \(id))." : "Checked out (receipt \(id))." }
    func alreadyOut(_ id: Int64) -> String { ko ? "이미 퇴장한 방문입니다 (영수증 번호 \(id))." : "That visit had ended already (receipt \(id))." }
    func checkedOutAll(_ count: Int, venue: String) -> String {
        ko ? "\(venue)의 방문 \(count)건을 퇴장 처리했습니다." : "Checked out \(count) \(count == 1 ? "visit" : "visits") at \(venue)."
    }
    func confirmCheckoutAll(_ count: Int, venue: String) -> String {
        ko ? "\(venue)에 지금 입장 중인 방문 \(count)건을 모두 퇴장 처리할까요?"
            : "Check out all \(count) \(count == 1 ? "visit" : "visits") inside \(venue) now?"
    }
    func nobodyInside(_ venue: String) -> String { ko ? "지금 \(venue)에 입장 중인 방문이 없습니다." : "Nobody is inside \(venue) now." }
    func checkOutAllButton(_ count: Int) -> String { ko ? "\(count)건 모두 퇴장" : "Check out all \(count)" }
    func checkedIn(_ id: Int64) -> String { ko ? "체크인했습니다 (영수증 번호 \(id))." : "Checked in (receipt \(id))." }
    var badVisitor: String { web.visitorInvalid }
    var unknownVenue: String { web.refusal(.unknownVenue).title }
    func full(inside: Int, capacity: Int) -> String { web.full(inside: inside, capacity: capacity) }

    var eraseHint: String {
        ko ? "영수증 번호(그 방문자의 모든 체크인) 또는 전화번호로 찾습니다. 삭제하기 전에 무엇이 지워지는지 보여 줍니다."
            : "Find a visitor by a receipt number (every check-in of that visitor) or a phone number. What would be erased is shown first."
    }
    var preview: String { ko ? "미리 보기" : "Preview" }
    func willErase(_ count: Int) -> String { ko ? "체크인 \(count)건이 삭제됩니다." : "\(count) check-ins will be erased." }
    func erased(_ count: Int) -> String { ko ? "체크인 \(count)건을 삭제했습니다." : "Erased \(count) check-ins." }
    var confirmErase: String { ko ? "삭제" : "Erase them" }
    var onlyThis: String { ko ? "이 체크인만" : "This check-in only" }

    var role: String { ko ? "역할" : "Role" }
    var state: String { ko ? "상태" : "State" }
    var created: String { ko ? "만든 시각" : "Created" }
    var active: String { ko ? "사용 중" : "active" }
    var disabledWord: String { ko ? "사용 중지" : "disabled" }
    var changes: String { ko ? "변경" : "Changes" }
    var addUser: String { ko ? "계정 추가" : "Add an account" }
    var add: String { ko ? "추가" : "Add" }
    var disable: String { ko ? "사용 중지" : "Disable" }
    var enable: String { ko ? "다시 사용" : "Enable" }
    var remove: String { ko ? "삭제" : "Remove" }
    var newPassword: String { ko ? "새 비밀번호" : "New password" }
    var setPassword: String { ko ? "비밀번호 변경" : "Set password" }
    var badAccount: String {
        ko ? "이름은 1-64자의 영문, 숫자, . _ - @이고 비밀번호는 8자 이상이어야 합니다." : "Names are 1-64 letters, digits, . _ - @; passwords 8 characters or more."
    }
    var exists: String { ko ? "같은 이름의 계정이 있습니다." : "An account of that name exists." }
    var done: String { ko ? "저장했습니다." : "Saved." }

    var tokens: String { ko ? "API 토큰" : "API tokens" }
    var token: String { ko ? "토큰" : "Token" }
    var addToken: String { ko ? "토큰 추가" : "Add a token" }
    var scope: String { ko ? "권한" : "Scope" }
    func scope(_ scope: APIScope) -> String {
        switch scope {
        case .read: ko ? "읽기 (read)" : "read"
        case .checkin: ko ? "체크인 (checkin)" : "checkin"
        }
    }
    var tokenVenues: String { ko ? "장소 (쉼표로 구분, 비우면 모든 장소)" : "Venues (comma-separated; empty: every venue)" }
    var createdBy: String { ko ? "만든 사람" : "Added by" }
    var tokenShownOnce: String {
        ko ? "이 토큰은 지금 한 번만 보입니다. 복사해 두세요. 서버는 해시만 보관합니다." : "This token is shown now, once: copy it. The server keeps only its hash."
    }
    var badToken: String {
        ko ? "이름은 1-64자의 영문, 숫자, . _ - @이고 권한은 read 또는 checkin, 장소는 장소 ID여야 합니다."
            : "Names are 1-64 letters, digits, . _ - @; the scope read or checkin; venues venue ids."
    }
    var tokenExists: String { ko ? "같은 이름의 토큰이 있습니다." : "A token of that name exists." }

    var actor: String { ko ? "누가" : "Who" }
    var action: String { ko ? "무엇을" : "Action" }
    var subject: String { ko ? "대상" : "Subject" }
    var detail: String { ko ? "내용" : "Detail" }
    var rows: String { ko ? "행" : "Rows" }
    var source: String { ko ? "어디서" : "From" }

    /// A role's name.
    // A second factor (issue 41).
    var secondStepTitle: String { ko ? "인증 코드" : "Verification code" }
    func secondStepHint(_ name: String) -> String {
        ko ? "\(name) 계정의 인증 앱에 표시된 6자리 코드를 입력하세요." : "Type the 6-digit code your authenticator app shows for \(name)."
    }
    var codeLabel: String { ko ? "코드" : "Code" }
    var recoveryCodeHint: String {
        ko ? "휴대폰이 없으면 복구 코드 하나를 입력하세요. 복구 코드는 한 번만 쓸 수 있습니다."
            : "Without your phone, type one of your recovery codes instead. Each works once."
    }
    var codeWrong: String { ko ? "코드가 맞지 않거나 이미 사용되었습니다." : "That code is wrong, or was used already." }
    var codeMalformed: String { ko ? "6자리 코드나 복구 코드를 입력하세요." : "Type the 6-digit code, or a recovery code." }
    var pendingExpiredTitle: String { ko ? "다시 로그인하세요" : "Sign in again" }
    var pendingExpired: String {
        ko ? "비밀번호 확인 후 5분이 지났거나 계정이 바뀌었습니다." : "Five minutes have passed since your password was checked, or the account changed."
    }
    var secondFactorUnreadable: String { ko ? "인증 정보를 읽을 수 없습니다" : "The second factor cannot be read" }
    var secondFactorUnreadableAdvice: String {
        ko ? "서버의 비밀 키가 바뀌었을 수 있습니다. 관리자가 qrcheckin-server user totp enable로 다시 등록해야 합니다."
            : "The server's secret may have changed. An admin must enrol it again: qrcheckin-server user totp enable."
    }
    var enrolTitle: String { ko ? "인증 앱 등록" : "Set up an authenticator app" }
    func enrolRequired(_ role: String) -> String {
        ko ? "\(role) 역할은 비밀번호와 함께 인증 코드가 필요합니다. 지금 등록하세요."
            : "The \(role) role signs in with a code as well as the password. Set it up now."
    }
    var enrolHint: String {
        ko ? "인증 앱(Google Authenticator, FreeOTP, 1Password 등)으로 QR 코드를 스캔한 뒤, 앱에 표시된 코드를 입력하세요."
            : "Scan the QR code with an authenticator app (Google Authenticator, FreeOTP, 1Password…), then type the code it shows."
    }
    var enrolKey: String { ko ? "스캔할 수 없으면 이 키를 입력하세요:" : "If you cannot scan it, enter this key:" }
    var confirmCode: String { ko ? "확인" : "Confirm" }
    var qrLabel: String { ko ? "인증 앱에 등록할 QR 코드" : "QR code for your authenticator app" }
    var recoveryCodesTitle: String { ko ? "복구 코드" : "Recovery codes" }
    var secondFactorOn: String { ko ? "인증 앱을 등록했습니다." : "Your authenticator app is set up." }
    var recoveryCodesHint: String {
        ko ? "휴대폰을 잃어버렸을 때 코드 대신 쓸 수 있습니다. 각각 한 번만 쓸 수 있으며 다시 표시되지 않습니다. 휴대폰과 다른 곳에 보관하세요."
            : "Each signs in once instead of a code if you lose your phone. They are not shown again: keep them apart from the phone."
    }
    var secondFactorShort: String { ko ? "인증 앱" : "second factor" }
    var secondFactorOff: String { ko ? "인증 앱 해제" : "Turn off second factor" }
    var accountTitle: String { ko ? "내 계정" : "Your account" }
    var secondFactor: String { ko ? "인증 앱 (2단계 인증)" : "Second factor" }
    var signInMethod: String { ko ? "로그인 방법" : "Signs in with" }
    func signInMethod(_ method: AccountSignIn) -> String {
        switch method {
        case .password: ko ? "비밀번호" : "a password"
        case .proxy: ko ? "조직의 로그인 (프록시)" : "the organisation's sign-in (proxy)"
        }
    }
    var signsInByProxy: String { ko ? "조직의 로그인이 자체 인증을 관리합니다." : "Your organisation's sign-in has its own second factor." }
    var secondFactorNone: String { ko ? "아직 인증 앱을 등록하지 않았습니다. 비밀번호만으로 로그인합니다." : "None yet: you sign in with your password alone." }
    func recoveryCodesLeft(_ count: Int) -> String { ko ? "남은 복구 코드: \(count)개" : "Recovery codes left: \(count)" }
    var enrolStart: String { ko ? "인증 앱 등록" : "Set up an authenticator app" }
    var enrolAgain: String { ko ? "새 인증 앱과 복구 코드로 바꾸기" : "Replace it and the recovery codes" }
    var secondFactorUnavailable: String { ko ? "이 서버에서는 인증 앱을 등록할 수 없습니다." : "This server cannot set up second factors." }
    var continueWord: String { ko ? "계속" : "Continue" }

    func role(_ role: ConsoleRole) -> String {
        switch (language, role) {
        case (.ko, .steward): "안내원 (steward)"
        case (.ko, .supervisor): "관리자 (supervisor)"
        case (.ko, .admin): "운영자 (admin)"
        case (_, let role): role.rawValue
        }
    }
    // Sign-in through the venue's proxy (issue 41).
    var proxyRefusedTitle: String { ko ? "로그인할 수 없습니다" : "You cannot sign in here" }
    var proxyBadName: String {
        ko ? "조직의 로그인이 보낸 사용자 이름을 콘솔 계정 이름으로 쓸 수 없습니다 (영문, 숫자, . _ - @ 만, 64자까지). 관리자에게 문의하세요."
            : "The user name your organisation's sign-in sent cannot name a console account (letters, digits, . _ - @, at most 64). Ask an administrator."
    }
    func proxyNoRole(_ user: String, _ groups: [String]) -> String {
        let listed = groups.isEmpty ? (ko ? "그룹 없음" : "no groups") : groups.prefix(20).joined(separator: ", ")
        return ko ? "조직의 로그인은 \(user)(으)로 확인했지만, 그룹(\(listed)) 중 콘솔 역할이 주어진 그룹이 없습니다. 관리자에게 그룹을 proxy-role.steward, supervisor 또는 admin 에 넣어 달라고 하세요."
            : "Your organisation's sign-in says you are \(user), but none of your groups (\(listed)) is given a console role. Ask an administrator to add your group to proxy-role.steward, supervisor or admin."
    }
    var proxyPasswordAccount: String {
        ko ? "같은 이름의 비밀번호 계정이 있어 조직의 로그인으로 들어갈 수 없습니다. 관리자에게 문의하세요."
            : "A password account has this name, so your organisation's sign-in cannot use it. Ask an administrator."
    }
    var proxyDisabled: String { ko ? "이 계정은 사용 중지되었습니다." : "This account is disabled." }
    var signInThroughOrganisation: String {
        ko ? "이 콘솔은 조직의 로그인으로 들어갑니다. 조직의 로그인 페이지를 거쳐 이 주소를 여세요."
            : "This console signs you in through your organisation's sign-in. Open it through your organisation's sign-in page."
    }
    var signInAgainThroughOrganisation: String { ko ? "조직의 로그인으로 다시 들어가기" : "Sign in again through your organisation" }
    var proxyAccountHasNoPassword: String {
        ko ? "조직의 로그인으로 들어가는 계정에는 비밀번호를 줄 수 없습니다." : "An account your organisation's sign-in manages has no password, and cannot be given one."
    }
}

