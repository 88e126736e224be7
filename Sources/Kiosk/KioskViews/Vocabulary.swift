import KioskCore
import SharedDomain
import SharedText

/// Every human word qrcheckin shows, in one language: the one table `status`, the kiosk and
/// messages share, so the same thing is always called the same (안심번호 everywhere).
/// Korean follows the seed ("남은 시간 7초").
public struct Vocabulary: Sendable {
    /// The language of the words.
    public let language: Language

    /// Words in `language`.
    public init(_ language: Language) {
        self.language = language
    }

    private var ko: Bool { language == .ko }

    /// The words the server's pages say too.
    private var shared: SharedWords { SharedWords(language) }

    /// The safe number's name: 안심번호 / Safe number.
    public var safeNumberLabel: String { shared.safeNumberLabel }

    /// The countdown as a label and the red part (the seconds): `남은 시간` `7초`.
    public func countdown(_ seconds: Int64) -> (label: String, seconds: String) { shared.countdown(seconds) }

    /// `흔들기 켜짐` / `shake on`.
    public func shake(_ mode: ShakeMode) -> String {
        switch (language, mode) {
        case (.ko, .on): "흔들기 켜짐"
        case (.ko, .off): "흔들기 꺼짐"
        case (.en, .on): "shake on"
        case (.en, .off): "shake off"
        }
    }

    /// `자동 새로고침` / `auto refresh`, `새로고침 일시 중지` / `refresh paused`.
    public func refresh(_ mode: RefreshMode) -> String {
        switch (language, mode) {
        case (.ko, .auto): "자동 새로고침"
        case (.ko, .paused): "새로고침 일시 중지"
        case (.en, .auto): "auto refresh"
        case (.en, .paused): "refresh paused"
        }
    }

    /// Both modes as one phrase, the same on the kiosk and in `status`.
    public func modes(shake: ShakeMode, refresh: RefreshMode) -> String {
        self.shake(shake) + " | " + self.refresh(refresh)
    }

    /// `경고: ` / `Warning: ` and the reason.
    public func warning(_ reason: String) -> String { (ko ? "경고: " : "Warning: ") + reason }

    public var pausedTitle: String { ko ? "체크인 일시 중지" : "Check-in paused" }
    public var pausedBody: String {
        ko ? "관리자가 코드 새로고침을 멈췄습니다" : "An operator paused the codes: none is shown"
    }

    /// The clock warning (after `warning`'s prefix): codes from an unsynchronised clock may be
    /// rejected at the door.
    public func clockUnsynchronized(maxErrorSeconds: Int64?) -> String {
        switch (language, maxErrorSeconds) {
        case (.ko, let error?): "시계가 동기화되지 않음 (±\(error)초): 코드가 만료로 거부될 수 있음"
        case (.ko, nil): "시계가 동기화되지 않음: 코드가 만료로 거부될 수 있음"
        case (.en, let error?): "clock not synchronised (±\(error)s): codes may be rejected as expired"
        case (.en, nil): "clock not synchronised: codes may be rejected as expired"
        }
    }

    /// `require-clock-sync` holds codes back: the title and the line under it.
    public var waitingTitle: String { ko ? "시계 동기화를 기다리는 중" : "Waiting for the clock to synchronise" }
    public var waitingBody: String {
        ko ? "시계가 동기화될 때까지 체크인 코드를 표시하지 않습니다" : "No check-in code until the system clock is synchronised"
    }

    public var staleTitle: String { ko ? "체크인 코드가 최신이 아닙니다" : "Check-in code out of date" }
    public func stale(_ reason: KioskStatus.StaleReason) -> String {
        switch (language, reason) {
        case (.ko, .expired(let at)): "데몬이 코드를 갱신하지 않습니다 (마지막 갱신 \(UTCTime.iso8601(at)))"
        case (.en, .expired(let at)): "The daemon stopped renewing it (last update \(UTCTime.iso8601(at)))"
        case (.ko, .daemonGone(let pid)): "데몬(pid \(pid))이 실행 중이 아닙니다"
        case (.en, .daemonGone(let pid)): "The daemon (pid \(pid)) is not running"
        }
    }

    public var notRunningTitle: String { ko ? "체크인이 실행 중이 아닙니다" : "Check-in is not running" }
    public func notRunning(stoppedAt: Int64?) -> String {
        switch (language, stoppedAt) {
        case (.ko, let at?): "데몬이 종료되었습니다 (\(UTCTime.iso8601(at)))"
        case (.en, let at?): "The daemon stopped at \(UTCTime.iso8601(at))"
        case (.ko, nil): "기다리는 중:"
        case (.en, nil): "Waiting for"
        }
    }

    public var unreadableTitle: String { ko ? "current.json을 읽을 수 없습니다" : "Cannot read current.json" }

    public var tooSmallTitle: String { ko ? "터미널이 너무 작습니다" : "Terminal too small" }
    public func tooSmall(needed: TerminalSize, actual: TerminalSize) -> String {
        ko ? "필요 \(needed), 현재 \(actual)" : "needs \(needed), is \(actual)"
    }
    public var tooSmallHint: String { ko ? "창을 키우거나 글꼴을 줄이세요" : "Enlarge it or use a smaller font" }

    // MARK: status

    /// The row labels of `qrcheckin status`, each translated.
    public var venueLabel: String { ko ? "장소" : "venue" }
    public var urlLabel: String { "URL" }
    public var modesLabel: String { ko ? "모드" : "Modes" }
    public var pngLabel: String { "PNG" }
    public var healthLabel: String { ko ? "상태" : "Health" }

    /// One line explaining a status verdict (English is also `status --json`'s `summary`);
    /// `change` says who paused, when it is known.
    public func summary(_ cause: StatusReport.Cause, change: ModeChange? = nil, clock: LocalClock? = nil) -> String {
        if cause == .paused, let change, let clock {
            return ko ? "\(pausedTitle) (\(modeChange(change, clock: clock)))" : "paused \(modeChange(change, clock: clock))"
        }
        return switch (language, cause) {
        case (.en, .stopped): "stopped: the daemon shut down"
        case (.ko, .stopped): "종료됨: 데몬이 종료되었습니다"
        case (.en, .processGone(let pid)): "not running: process \(pid) is gone"
        case (.ko, .processGone(let pid)): "실행 중이 아님: 프로세스 \(pid)이(가) 없습니다"
        case (.en, .socketRefused): "not running: its control socket refuses connections"
        case (.ko, .socketRefused): "실행 중이 아님: 제어 소켓이 연결을 거부합니다"
        case (.en, .expired(let ago)): "stale: the code expired \(ago)s ago"
        case (.ko, .expired(let ago)): "최신이 아님: 코드가 \(ago)초 전에 만료되었습니다"
        case (.en, .degraded(let reason)): "degraded: \(reason)"
        case (.ko, .degraded(let reason)): "성능 저하: \(reason)"
        case (.en, .paused): "paused by the operator"
        case (.en, .waitingForClock): "waiting for the clock to synchronise (require-clock-sync): no code is shown"
        case (.ko, .waitingForClock): "시계 동기화 대기 중 (require-clock-sync): 코드를 표시하지 않습니다"
        case (.ko, .paused): pausedTitle
        case (.en, .running): "running"
        case (.ko, .running): "실행 중"
        }
    }

    /// Where and by whom the modes were last set: `from the console by mina at 14:02`,
    /// `locally by alice at 14:02`, `by the daemon at 14:02` (it paused itself: fail closed).
    public func modeChange(_ change: ModeChange, clock: LocalClock) -> String {
        let at = clock.text(change.at)
        let who = change.by?.rawValue
        switch (language, change.source) {
        case (.en, .console): return "from the console" + (who.map { " by \($0)" } ?? "") + " at \(at)"
        case (.en, .local): return "locally" + (who.map { " by \($0)" } ?? "") + " at \(at)"
        case (.en, .daemon): return "by the daemon at \(at)"
        case (.ko, .console): return "콘솔에서" + (who.map { " \($0)" } ?? "") + ", \(at)"
        case (.ko, .local): return "이 키오스크에서" + (who.map { " \($0)" } ?? "") + ", \(at)"
        case (.ko, .daemon): return "데몬이 스스로, \(at)"
        }
    }

    /// The reporting row's label.
    public var reportingLabel: String { ko ? "보고" : "Reporting" }

    /// The health row's value: `ok` / `정상`, or the reason it is degraded.
    public func health(_ health: String, reason: String?) -> String {
        if health == "ok" { return ko ? "정상" : "ok" }
        return (ko ? "성능 저하" : "degraded") + (reason.map { ": \($0)" } ?? "")
    }

    /// The health of a report nobody keeps current: unknown, never `ok`.
    public var healthUnknown: String { ko ? "알 수 없음 (데몬이 갱신하지 않음)" : "unknown (nobody keeps it current)" }

    /// `(updated 8s ago)` / `(8초 전 갱신)`, or that the file is missing.
    public func fileAge(_ seconds: Int64?) -> String {
        guard let seconds else { return ko ? "(없음)" : "(missing)" }
        return ko ? "(\(seconds)초 전 갱신)" : "(updated \(seconds)s ago)"
    }
}
