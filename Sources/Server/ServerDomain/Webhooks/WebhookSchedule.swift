import SharedDomain

/// When an event is tried again, and what an answer means (Standard Webhooks' schedule and
/// rules): at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (ten
/// attempts over about three days and a half), then failed. A 2xx delivers; 3xx is a failure
/// (redirects are not followed); 410 Gone fails the event and disables the endpoint; 429 and
/// 503 put the next attempt no earlier than their `Retry-After` (seconds, at most a day); any
/// other answer, or none (refused, timed out after 15 s), is tried again on the schedule.
public struct WebhookSchedule: Hashable, Sendable {
    /// The waits after attempt 1, 2, …: the (n+1)-th attempt comes `delays[n-1]` after the n-th.
    public let delays: [Int64]

    /// The standard schedule (seconds).
    public static let standard = WebhookSchedule(delays: [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400])

    public init(delays: [Int64]) {
        self.delays = delays
    }

    /// The most attempts an event gets.
    public var attempts: Int { delays.count + 1 }

    /// The verdict on attempt number `attempt` (1 for the first) made at `time`, which got
    /// `status` (nil: no answer) with `retryAfter` (the header's value, if any).
    public func verdict(attempt: Int, at time: WallTime, status: Int?, retryAfter: String?) -> WebhookVerdict {
        if let status, (200...299).contains(status) { return .delivered }
        if status == 410 { return .gone }
        guard attempt >= 1, attempt <= delays.count else { return .failed }
        var wait = delays[attempt - 1]
        if status == 429 || status == 503, let asked = retryAfter.flatMap(Self.seconds) {
            wait = max(wait, min(asked, 86400))
        }
        return .retry(at: WallTime(milliseconds: time.milliseconds + wait * 1000))
    }

    /// `Retry-After` as delay-seconds (an HTTP date is not read: the schedule's wait stands).
    static func seconds(_ value: String) -> Int64? {
        let digits = value.utf8.filter { $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }
}
