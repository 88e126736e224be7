import SharedDomain

/// What a webhook endpoint hears. The raw values are the words of `--events`, the payload's
/// `type` (`checkin`…) and the ledger's `webhook_events.type`.
public enum WebhookEventType: String, CaseIterable, Hashable, Sendable {
    /// A check-in recorded (a scan, a staff check-in).
    case checkin
    /// A visit's exit recorded (kiosk, receipt, staff, automatic).
    case checkout
    /// A scan refused for any reason but a full venue.
    case refused
    /// A scan refused because its venue was full.
    case full
    /// A kiosk's light or problems changed (`KioskAnnouncement`): it turned late or offline,
    /// reports again, was paused, lost its clock…
    case kiosk
    /// `webhook test`: sent to one endpoint on an operator's word, never subscribed to.
    case test

    /// The events an endpoint hears when `--events` is not given.
    public static let defaults: Set<WebhookEventType> = [.checkin, .checkout]

    /// The bit of this type in the ledger's `webhook_endpoints.events` (a set as one integer: a
    /// check-in's outbox insert selects its endpoints with one `&`).
    public var bit: Int64 {
        switch self {
        case .checkin: 1
        case .checkout: 2
        case .refused: 4
        case .full: 8
        case .kiosk: 16
        case .test: 0
        }
    }

    /// `types` as the ledger's integer.
    public static func bits(_ types: Set<WebhookEventType>) -> Int64 {
        types.reduce(0) { $0 | $1.bit }
    }

    /// The types the ledger's integer holds.
    public static func types(bits: Int64) -> Set<WebhookEventType> {
        Set(allCases.filter { bits & $0.bit != 0 })
    }

    /// The types of a comma-separated list (`checkin,checkout`); nil names the first unknown word.
    public static func parse(_ list: String) -> Result<Set<WebhookEventType>, WebhookNameError> {
        var types: Set<WebhookEventType> = []
        for word in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let type = WebhookEventType(rawValue: String(word).trimmingSpaces), type != .test else {
                return .failure(WebhookNameError("unknown event \"\(word)\": checkin, checkout, refused, full or kiosk"))
            }
            types.insert(type)
        }
        return .success(types)
    }
}

/// A name, URL or event list refused: its words.
public struct WebhookNameError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One receiver of webhooks, kept in the ledger so every server of one PostgreSQL sends to it.
public struct WebhookEndpoint: Hashable, Sendable {
    /// Its name (`crm`, `door-counter`): 1-64 letters, digits and . _ - (as accounts' names).
    public let name: String
    /// Where events are POSTed: `http://` or `https://`.
    public let url: String
    /// Its signing secret, `whsec_` and the base64 of the key (Standard Webhooks).
    public let secret: WebhookSecret
    /// The events it hears.
    public let events: Set<WebhookEventType>
    /// The venues it hears of; empty: every venue.
    public let venues: [VenueID]
    /// Whether its payloads carry the visitor's name and phone (`--personal`).
    public let personal: Bool
    /// When and why it was disabled (`webhook disable`, a 410 answer); nil while enabled.
    public let disabled: WebhookDisabling?
    /// When it was added.
    public let created: WallTime

    public init(name: String, url: String, secret: WebhookSecret, events: Set<WebhookEventType> = WebhookEventType.defaults,
                venues: [VenueID] = [], personal: Bool = false, disabled: WebhookDisabling? = nil, created: WallTime) {
        self.name = name
        self.url = url
        self.secret = secret
        self.events = events
        self.venues = venues
        self.personal = personal
        self.disabled = disabled
        self.created = created
    }

    /// Whether it hears `type` at `venue` (nil: an event of no venue, heard by endpoints of every venue).
    public func hears(_ type: WebhookEventType, at venue: VenueID?) -> Bool {
        disabled == nil && events.contains(type) && (venues.isEmpty || venue.map(venues.contains) == true)
    }

    /// The venues as the ledger keeps them: `,HALL-1,HALL-2,` (empty: every venue), so one
    /// `LIKE '%,' || venue || ',%'` selects (venue ids hold only 0-9, A-Z, '-' and '.').
    public var venueList: String {
        venues.isEmpty ? "" : "," + venues.map(\.rawValue).joined(separator: ",") + ","
    }

    /// The venues of a ledger's list.
    public static func venues(list: String) -> [VenueID] {
        list.split(separator: ",").compactMap { try? VenueID(String($0)) }
    }

    /// Whether `name` may name an endpoint: 1-64 of A-Z a-z 0-9 . _ -.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// Whether `url` is one the server sends to: http(s)://, a host, at most 2,048 bytes, no
    /// spaces or control characters (libcurl parses the rest, and refuses what it cannot).
    public static func isValidURL(_ url: String) -> Bool {
        guard url.utf8.count <= 2048, url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        for scheme in ["http://", "https://"] where url.hasPrefix(scheme) {
            return url.count > scheme.count && !url.dropFirst(scheme.count).hasPrefix("/")
        }
        return false
    }
}

/// Why and since when an endpoint sends nothing.
public struct WebhookDisabling: Hashable, Sendable {
    /// Since when.
    public let time: WallTime
    /// Why, in words: `by alice`, `the receiver answered 410 Gone`.
    public let reason: String

    public init(time: WallTime, reason: String) {
        self.time = time
        self.reason = reason
    }
}

/// A signing secret: `whsec_` followed by the base64 of 24 to 64 random bytes (Standard
/// Webhooks; the receiver's library decodes the part after the prefix as the HMAC key).
public struct WebhookSecret: Hashable, Sendable, CustomStringConvertible {
    /// The prefix every secret carries.
    public static let prefix = "whsec_"
    /// The secret as shown once and kept: `whsec_…`.
    public let text: String

    /// A secret of this text (`whsec_…`).
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), text.utf8.count > Self.prefix.utf8.count, text.utf8.count <= 128 else { return nil }
        self.text = text
    }

    /// Never the secret itself in a log or a message.
    public var description: String { "whsec_…" }

    /// The base64 part after the prefix.
    public var encodedKey: Substring { text.dropFirst(Self.prefix.count) }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
