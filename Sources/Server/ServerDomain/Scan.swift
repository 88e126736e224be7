import SharedDomain

/// What a visitor's phone brought: the venue the URL names (nil when its segment is no venue
/// id: refused as malformed), the code, the device, and visitor fields when the venue asks for them.
public struct Scan: Hashable, Sendable {
    /// A scanned token or a typed safe number.
    public enum Code: Hashable, Sendable {
        /// The last path segment of a scanned URL.
        case token(String)
        /// A safe number as typed (normalised to NFC by the verifier).
        case safeNumber(String)

        /// The method a check-in by this code has.
        public var method: CheckInMethod {
            switch self {
            case .token: .qr
            case .safeNumber: .safeNumber
            }
        }
    }

    /// The phone that scanned: one the server knows by its cookie, or a new one.
    public enum Device: Hashable, Sendable {
        /// A device whose cookie the server issued.
        case known(DeviceID)
        /// A phone without the server's cookie: the id it gets if the check-in goes ahead
        /// (counted against the new-device budgets of its client `network`).
        case new(DeviceID, network: String)

        /// The device's id.
        public var id: DeviceID {
            switch self {
            case .known(let id), .new(let id, _): id
            }
        }
    }

    /// The venue the path names, parsed once by the site's route; nil when its segment is no
    /// venue id (the use case refuses such a scan as malformed and counts the refusal).
    public let venue: VenueID?
    /// The code.
    public let code: Code
    /// The device.
    public let device: Device
    /// Visitor fields the device sent (remembered from an earlier form), if any.
    public let visitor: Visitor?

    /// A scan with these parts.
    public init(venue: VenueID?, code: Code, device: Device, visitor: Visitor? = nil) {
        self.venue = venue
        self.code = code
        self.device = device
        self.visitor = visitor
    }

    /// A scan of the venue `text` names (nil when it is no venue id).
    public init(venue text: String, code: Code, device: Device, visitor: Visitor? = nil) {
        self.init(venue: try? VenueID(text), code: code, device: device, visitor: visitor)
    }
}
