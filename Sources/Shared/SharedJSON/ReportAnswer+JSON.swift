import SharedDomain

/// An answer's body as JSON: `{"serverTime": ms, "steer": null | {"id", "refresh", "shake",
/// "newCode", "by", "at"}}`; the server writes it, the kiosk reads it after checking its MAC.
extension ReportAnswer {
    /// The body's bytes.
    public var bodyBytes: [UInt8] { json.serializedBytes }

    /// The body as a JSON value.
    public var json: JSONValue {
        .object([
            ("serverTime", .number(serverTime)),
            ("steer", steer.map { steer in
                .object([("id", .number(steer.id)), ("refresh", steer.refresh.map { .string($0.rawValue) } ?? .null),
                         ("shake", steer.shake.map { .string($0.rawValue) } ?? .null), ("newCode", .bool(steer.newCode)),
                         ("by", .string(steer.by.rawValue)), ("at", .number(steer.at))])
            } ?? .null),
        ])
    }

    /// Reads a body: at most `maximumBodyBytes`, every field checked; a steer must ask for
    /// something. Unknown fields are ignored.
    public init(body: [UInt8]) throws(ReportFormatError) {
        guard body.count <= Self.maximumBodyBytes else { throw .malformed("the answer is over \(Self.maximumBodyBytes) bytes") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .malformed(error.description)
        }
        guard case .object = value else { throw .malformed("the answer is not a JSON object") }
        let fields = JSONFields(value)
        let serverTime = try fields.number("serverTime", in: 0...9_999_999_999_999_999)
        guard let member = fields.member("steer"), member != .null else {
            self.init(serverTime: serverTime)
            return
        }
        guard case .object = member else { throw .malformed("steer is not an object") }
        let steer = JSONFields(member)
        guard let by = OperatorName(try steer.string("by")) else { throw .malformed("steer.by is not an operator's name") }
        let parsed = KioskSteer(
            id: try steer.number("id", in: 0...Int64.max), refresh: try steer.optionalWord("refresh", as: RefreshMode.self),
            shake: try steer.optionalWord("shake", as: ShakeMode.self), newCode: try steer.optionalBool("newCode") ?? false,
            by: by, at: try steer.number("at", in: -KioskReport.timeLimit...KioskReport.timeLimit))
        guard !parsed.isEmpty else { throw .malformed("steer asks for nothing") }
        self.init(serverTime: serverTime, steer: parsed)
    }
}
