import KioskCore
import SharedJSON

/// How reporting goes, as `status` says it: the reporter's `report.json`, whether its process
/// is alive, and the moment of asking. "to URL: last ok 12s ago", or the error.
public struct ReportingSummary: Equatable, Sendable {
    /// What the reporter last wrote.
    public var status: ReporterStatus
    /// Whether its process is alive.
    public var running: Bool
    /// Unix seconds now.
    public var now: Int64

    /// A summary.
    public init(status: ReporterStatus, running: Bool, now: Int64) {
        self.status = status
        self.running = running
        self.now = now
    }

    /// Whether reports get through now.
    public var isOK: Bool { running && status.phase == .reporting }

    /// The row's value in `words`' language.
    public func text(_ words: Vocabulary) -> String {
        let ko = words.language == .ko
        let lastOK = status.lastOkAt.map { max(0, now - $0) }
        let last = lastOK.map { ko ? "마지막 성공 \($0)초 전" : "last ok \($0)s ago" } ?? (ko ? "성공한 적 없음" : "never answered")
        let prefix = ko ? "\(status.reportTo)(으)로: " : "to \(status.reportTo): "
        guard running, status.phase != .stopped else {
            return prefix + (ko ? "보고 프로세스가 실행 중이 아님 (\(last))" : "the reporter is not running (\(last))")
        }
        switch status.phase {
        case .reporting, .stopped:
            return prefix + last
        case .starting:
            return prefix + (ko ? "아직 응답 없음" : "no answer yet")
        case .failing:
            let count = status.failuresInARow
            let next = status.nextAttemptAt.map { max(0, $0 - now) }
            let error = status.lastError ?? "unknown error"
            return prefix + (ko
                ? "실패 (연속 \(count)회, \(last)): \(error)" + (next.map { "; \($0)초 후 재시도" } ?? "")
                : "failing (\(count) in a row, \(last)): \(error)" + (next.map { "; next try in \($0)s" } ?? ""))
        }
    }

    /// `report.json` with `running` and `lastOkSecondsAgo` beside it.
    public var json: JSONValue {
        guard case .object(var members) = status.json else { return status.json }
        members.append(("running", .bool(running)))
        members.append(("ok", .bool(isOK)))
        members.append(("lastOkSecondsAgo", status.lastOkAt.map { .number(max(0, now - $0)) } ?? .null))
        return .object(members)
    }
}
