import SharedDomain

/// Where an event stands in the outbox.
public enum WebhookEventState: String, CaseIterable, Hashable, Sendable {
    /// Not yet delivered: due at its next attempt.
    case pending
    /// A 2xx answer came.
    case delivered
    /// Every attempt of the schedule failed, or the endpoint answered 410 Gone.
    case failed
}

/// One event for one endpoint, as the outbox keeps it: written in the transaction of the
/// check-in, exit, refusal or kiosk announcement it reports. Its `id` is the `webhook-id` of every attempt
/// (`msg_` and the id), so a receiver that saw it once can drop a retry.
public struct WebhookEvent: Hashable, Sendable {
    /// The outbox's id.
    public let id: Int64
    /// The endpoint it is for.
    public let endpoint: String
    /// What happened.
    public let type: WebhookEventType
    /// When it happened.
    public let time: WallTime
    /// Where (nil: a refusal of an unreadable code names no venue).
    public let venue: VenueID?
    /// The check-in's id as receipts show it (check-in, checkout), if any.
    public let checkIn: Int64?
    /// How the check-in came (`scan`, `staff`…), or the refused scan's method.
    public let method: String?
    /// For a checkout: how the exit was recorded.
    public let exitKind: ExitKind?
    /// For a checkout: the stay, seconds.
    public let staySeconds: Int64?
    /// The venue's open visits when the event was first claimed for sending (check-ins and
    /// exits; nil before that, and for other types).
    public let occupancy: Int?
    /// For a refusal: why (`expired`, `full`…).
    public let reason: String?
    /// The visitor's name and phone: only for an endpoint added with `--personal`.
    public let visitorName: String?
    public let visitorPhone: String?
    /// For a `kiosk` event: which kiosk of `venue`, its light and its problems' codes.
    public let kiosk: KioskName?
    public let kioskState: KioskState?
    public let problems: [String]
    /// Where it stands, how many attempts were made, when the next is due, when it ended.
    public let state: WebhookEventState
    public let attempts: Int
    public let next: WallTime
    public let done: WallTime?

    public init(id: Int64, endpoint: String, type: WebhookEventType, time: WallTime, venue: VenueID?, checkIn: Int64? = nil, method: String? = nil,
                exitKind: ExitKind? = nil, staySeconds: Int64? = nil, occupancy: Int? = nil, reason: String? = nil, visitorName: String? = nil,
                visitorPhone: String? = nil, kiosk: KioskName? = nil, kioskState: KioskState? = nil, problems: [String] = [],
                state: WebhookEventState = .pending, attempts: Int = 0, next: WallTime, done: WallTime? = nil) {
        self.id = id
        self.endpoint = endpoint
        self.type = type
        self.time = time
        self.venue = venue
        self.checkIn = checkIn
        self.method = method
        self.exitKind = exitKind
        self.staySeconds = staySeconds
        self.occupancy = occupancy
        self.reason = reason
        self.visitorName = visitorName
        self.visitorPhone = visitorPhone
        self.kiosk = kiosk
        self.kioskState = kioskState
        self.problems = problems
        self.state = state
        self.attempts = attempts
        self.next = next
        self.done = done
    }

    /// The `webhook-id` of its every attempt.
    public var messageID: String { "msg_\(id)" }
}

/// One attempt to deliver an event, as the delivery log keeps it (30 days, or the log's
/// retention when shorter).
public struct WebhookAttempt: Hashable, Sendable {
    /// The event.
    public let event: Int64
    /// The endpoint.
    public let endpoint: String
    /// When it began.
    public let time: WallTime
    /// The answer's status; nil when none came (refused, timed out: `answer` says).
    public let status: Int?
    /// How long it took, milliseconds.
    public let milliseconds: Int64
    /// The first 1 KB of the answer's body, or the transport's words.
    public let answer: String

    public init(event: Int64, endpoint: String, time: WallTime, status: Int?, milliseconds: Int64, answer: String) {
        self.event = event
        self.endpoint = endpoint
        self.time = time
        self.status = status
        self.milliseconds = milliseconds
        self.answer = answer
    }

    /// The most bytes of an answer kept.
    public static let answerBytes = 1024
}

/// What an attempt comes to, and what the outbox does with its event.
public enum WebhookVerdict: Hashable, Sendable {
    /// 2xx: delivered.
    case delivered
    /// Try again at this time (the schedule's next step, or later when the receiver asked).
    case retry(at: WallTime)
    /// The schedule is spent: failed.
    case failed
    /// 410 Gone: failed, and the endpoint is disabled.
    case gone
}

/// The outcome of one attempt, handed to the outbox in one batch with others.
public struct WebhookResult: Hashable, Sendable {
    public let attempt: WebhookAttempt
    public let verdict: WebhookVerdict

    public init(attempt: WebhookAttempt, verdict: WebhookVerdict) {
        self.attempt = attempt
        self.verdict = verdict
    }
}

/// The outbox's counts for metrics and `webhook list`.
public struct WebhookCounts: Hashable, Sendable {
    public var pending: Int
    public var delivered: Int
    public var failed: Int

    public init(pending: Int = 0, delivered: Int = 0, failed: Int = 0) {
        self.pending = pending
        self.delivered = delivered
        self.failed = failed
    }
}
