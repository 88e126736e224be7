/// Something wrong with a kiosk that its latest report shows, named as the console and
/// `kiosks` say it: "shows an expired code", "clock 41 s fast", "paused", …
public enum KioskProblem: Sendable, Hashable {
    /// Its daemon is not running (the reporter is): nothing is on screen.
    case notRunning
    /// Its daemon waits for the clock to synchronise before it shows a code.
    case waiting
    /// It shows a code whose window is behind the server's clock by more than the venue's
    /// skew: scans of it are refused as expired. `windows`: how many windows behind.
    case expiredCode(windows: Int64)
    /// It shows a code whose window is ahead of the server's clock by more than the skew:
    /// scans of it are refused as not valid yet.
    case futureCode(windows: Int64)
    /// Its clock is this many seconds ahead (positive) or behind (negative) the server's,
    /// beyond what the reading's bound and the tolerance explain.
    case clock(seconds: Int64)
    /// Its clock is not synchronised (the kernel says so).
    case notSynchronized
    /// Codes do not rotate: paused (on the kiosk, from the console, or by the daemon itself).
    case paused
    /// Its daemon says it is degraded, and why (`disk full`).
    case degraded(reason: String?)
    /// Its daemon rotates with another period than the server expects for the venue.
    case period(kiosk: Int64, server: Int64)
    /// It runs an older qrcheckin than the server.
    case oldVersion(String)

    /// A short name for scripts and metrics: `expired-code`, `clock`, …
    public var code: String {
        switch self {
        case .notRunning: "not-running"
        case .waiting: "waiting"
        case .expiredCode: "expired-code"
        case .futureCode: "future-code"
        case .clock: "clock"
        case .notSynchronized: "not-synchronized"
        case .paused: "paused"
        case .degraded: "degraded"
        case .period: "period"
        case .oldVersion: "old-version"
        }
    }

    /// The problem in English words, as `kiosks` prints it.
    public var english: String {
        switch self {
        case .notRunning: "daemon not running"
        case .waiting: "waiting for the clock"
        case .expiredCode(let windows): "shows an expired code (\(windows) window\(windows == 1 ? "" : "s") behind)"
        case .futureCode(let windows): "shows a code not valid yet (\(windows) window\(windows == 1 ? "" : "s") ahead)"
        case .clock(let seconds): "clock \(abs(seconds)) s \(seconds > 0 ? "fast" : "slow")"
        case .notSynchronized: "not synchronised"
        case .paused: "paused"
        case .degraded(let reason): "degraded" + (reason.map { ": \($0)" } ?? "")
        case .period(let kiosk, let server): "period \(kiosk) s, the server expects \(server) s"
        case .oldVersion(let version): "old version (\(version))"
        }
    }

    /// The problem in Korean words, as the console says it in Korean.
    public var korean: String {
        switch self {
        case .notRunning: "데몬이 실행되지 않음"
        case .waiting: "시계 동기화를 기다리는 중"
        case .expiredCode(let windows): "만료된 코드를 표시 중 (\(windows)구간 뒤처짐)"
        case .futureCode(let windows): "아직 유효하지 않은 코드를 표시 중 (\(windows)구간 앞섬)"
        case .clock(let seconds): "시계가 \(abs(seconds))초 \(seconds > 0 ? "빠름" : "느림")"
        case .notSynchronized: "시계가 동기화되지 않음"
        case .paused: "일시정지됨"
        case .degraded(let reason): "성능 저하" + (reason.map { ": \($0)" } ?? "")
        case .period(let kiosk, let server): "주기 \(kiosk)초, 서버는 \(server)초를 예상"
        case .oldVersion(let version): "이전 버전 (\(version))"
        }
    }
}
