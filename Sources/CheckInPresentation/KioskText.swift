import CheckInDomain

/// The kiosk's words in one language. Korean follows the seed ("남은 시간 7초").
struct KioskText: Sendable {
    let language: KioskLanguage

    var safeNumberLabel: String { language == .ko ? "안심번호" : "Safe number" }

    /// The countdown as a label and the red part (the seconds).
    func countdown(_ seconds: Int64) -> (label: String, seconds: String) {
        language == .ko ? ("남은 시간 ", "\(seconds)초") : ("Time left ", "\(seconds)s")
    }

    func shake(_ mode: ShakeMode) -> String {
        switch (language, mode) {
        case (.ko, .on): "흔들기 켜짐"
        case (.ko, .off): "흔들기 꺼짐"
        case (.en, .on): "shake on"
        case (.en, .off): "shake off"
        }
    }

    func refresh(_ mode: RefreshMode) -> String {
        switch (language, mode) {
        case (.ko, .auto): "자동 새로고침"
        case (.ko, .paused): "새로고침 일시 중지"
        case (.en, .auto): "auto refresh"
        case (.en, .paused): "refresh paused"
        }
    }

    func warning(_ reason: String) -> String { (language == .ko ? "경고: " : "Warning: ") + reason }

    var pausedTitle: String { language == .ko ? "체크인 일시 중지" : "Check-in paused" }
    var pausedBody: String {
        language == .ko ? "관리자가 코드 새로고침을 멈췄습니다" : "An operator paused the codes: none is shown"
    }

    var staleTitle: String { language == .ko ? "체크인 코드가 최신이 아닙니다" : "Check-in code out of date" }
    func stale(_ reason: KioskStatus.StaleReason) -> String {
        switch (language, reason) {
        case (.ko, .expired(let at)): "데몬이 코드를 갱신하지 않습니다 (마지막 갱신 \(UTCTime.iso8601(at)))"
        case (.en, .expired(let at)): "The daemon stopped renewing it (last update \(UTCTime.iso8601(at)))"
        case (.ko, .daemonGone(let pid)): "데몬(pid \(pid))이 실행 중이 아닙니다"
        case (.en, .daemonGone(let pid)): "The daemon (pid \(pid)) is not running"
        }
    }

    var notRunningTitle: String { language == .ko ? "체크인이 실행 중이 아닙니다" : "Check-in is not running" }
    func notRunning(stoppedAt: Int64?) -> String {
        switch (language, stoppedAt) {
        case (.ko, let at?): "데몬이 종료되었습니다 (\(UTCTime.iso8601(at)))"
        case (.en, let at?): "The daemon stopped at \(UTCTime.iso8601(at))"
        case (.ko, nil): "기다리는 중:"
        case (.en, nil): "Waiting for"
        }
    }

    var unreadableTitle: String { language == .ko ? "current.json을 읽을 수 없습니다" : "Cannot read current.json" }

    var tooSmallTitle: String { language == .ko ? "터미널이 너무 작습니다" : "Terminal too small" }
    func tooSmall(needed: TerminalSize, actual: TerminalSize) -> String {
        language == .ko ? "필요 \(needed), 현재 \(actual)" : "needs \(needed), is \(actual)"
    }
    var tooSmallHint: String { language == .ko ? "창을 키우거나 글꼴을 줄이세요" : "Enlarge it or use a smaller font" }
}
