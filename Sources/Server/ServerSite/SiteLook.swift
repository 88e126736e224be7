import SharedDomain

/// What a venue's pages look like beyond the server's own design: an accent colour and a logo.
/// The accent only paints the card's top band (never text), so any colour keeps every page's
/// contrast; the status colours stay the server's, so a doorman reads them the same everywhere.
public struct VenueBrand: Sendable, Equatable {
    /// `#rrggbb` (validated by the configuration), or nil for the server's own.
    public let accent: String?
    /// The logo shown beside the venue's name, served at `B/_/logo.VENUE`.
    public let logo: Logo?

    /// A brand of an accent and a logo (either may be nil).
    public init(accent: String? = nil, logo: Logo? = nil) {
        self.accent = accent
        self.logo = logo
    }

    /// No accent, no logo.
    public static let none = VenueBrand()

    /// An image file read at start: its bytes and its media type.
    public struct Logo: Sendable, Equatable {
        public let bytes: [UInt8]
        public let type: String

        /// Largest logo file taken: a logo is an icon beside a name, not a photograph.
        public static let maximumBytes = 256 * 1024

        /// A logo of `bytes` of media type `type` (`image/png`, `image/svg+xml`…).
        public init(bytes: [UInt8], type: String) {
            self.bytes = bytes
            self.type = type
        }

        /// The media type of a logo file named `path`, by its extension; nil for other files.
        public static func type(ofPath path: String) -> String? {
            let lower = path.lowercased()
            for (suffix, type) in [(".png", "image/png"), (".svg", "image/svg+xml"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"),
                                   (".webp", "image/webp")] where lower.hasSuffix(suffix) { return type }
            return nil
        }
    }

    /// Whether `text` is an accent colour as the setting takes it: `#rrggbb`.
    public static func isAccent(_ text: String) -> Bool {
        text.utf8.count == 7 && text.first == "#" && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}

/// The settings the visitor pages show or obey: the receipt's freshness, the privacy notice's
/// controller and retention, and each venue's brand.
public struct SiteLook: Sendable {
    /// A receipt is live (green, moving) this long after its check-in, then visibly aged.
    public let receiptFreshnessSeconds: Int64
    /// Who is responsible for the visitor log (the privacy notice's controller), or nil: the
    /// notice then names the venue.
    public let controller: String?
    /// How long check-ins are kept (the `retention` setting), told in the privacy notice.
    public let retentionSeconds: Int64
    /// Every venue's brand unless `brands` has its own.
    public let defaultBrand: VenueBrand
    /// Venues with a brand of their own.
    public let brands: [VenueID: VenueBrand]

    /// Ten minutes: long enough to walk from the kiosk to the door, short enough that an old
    /// receipt (a screenshot, yesterday's tab) is no longer green.
    public static let standardFreshnessSeconds: Int64 = 600

    /// A look of these settings.
    public init(receiptFreshnessSeconds: Int64 = standardFreshnessSeconds, controller: String? = nil, retentionSeconds: Int64 = 28 * 86_400,
                defaultBrand: VenueBrand = .none, brands: [VenueID: VenueBrand] = [:]) {
        self.receiptFreshnessSeconds = receiptFreshnessSeconds
        self.controller = controller
        self.retentionSeconds = retentionSeconds
        self.defaultBrand = defaultBrand
        self.brands = brands
    }

    /// The server's defaults: ten minutes' freshness, no controller named, four weeks, no brands.
    public static let standard = SiteLook()

    /// The brand of `venue`.
    public func brand(of venue: VenueID) -> VenueBrand { brands[venue] ?? defaultBrand }

    /// The logo of the venue whose asset name is `name` (`logo.HALL-1`).
    func logo(asset name: String) -> VenueBrand.Logo? {
        guard name.hasPrefix("logo."), let venue = try? VenueID(String(name.dropFirst(5))) else { return nil }
        return brand(of: venue).logo
    }

    /// The style sheet: the server's, then each venue's accent (a page says its venue in
    /// `<body data-venue>`; venue ids need no escaping inside a quoted selector).
    var css: String {
        var css = ServerAssets.css
        if let accent = defaultBrand.accent { css += ":root { --accent: \(accent); }\n" }
        for (venue, brand) in brands.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let accent = brand.accent { css += "body[data-venue=\"\(venue.rawValue)\"] { --accent: \(accent); }\n" }
        }
        return css
    }
}
