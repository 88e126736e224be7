import ServerDomain
import ServerHTTPTypes
import ServerReports
import SharedDomain
import SharedJSON

/// `/api/v1/…`: the API for scripts and other systems, on the console's listener only (never
/// the visitors'). Every call but the document's carries `Authorization: Bearer qrc_…`; the
/// token is found by its secret's hash (`APITokens`), spends one event of its own rate budget
/// (429 with `Retry-After` when it has none), must have the endpoint's scope (403) and cover
/// the venue (403), and acts as itself: each call is an operator action of the token's name,
/// from `api ADDRESS`, through the same use cases as the console and the shell, audited in
/// their way (`export`, `inside`, `staff-check-in`, `staff-check-out`; `api-read` for the
/// venues' counts). JSON members are the exports' (`CheckInExport`'s columns): one vocabulary.
/// Errors are RFC 9457 problem details (`application/problem+json`).
struct APIHandler {
    let parts: ConsoleSite.Parts

    /// Rows a page holds unless `limit` says; and at most.
    static let defaultLimit = 100
    static let maximumLimit = 1000

    func respond(to http: HTTPRequest) async -> HTTPResponse {
        let route = APIRoute(method: http.method, path: http.path)
        switch route {
        case .notFound: return Self.problem(404, "Not Found", "no such endpoint: \(http.path)")
        case .methodNotAllowed(let allow): return Self.problem(405, "Method Not Allowed", "\(http.method) is not allowed here", extra: [("Allow", allow)])
        case .openAPI: return Self.json(200, Array(APIDocument.text.utf8))
        default: break
        }
        // Who calls: a bearer token of the right shape, then the token of its hash.
        guard let header = http.headers["authorization"] else {
            return Self.problem(401, "Unauthorized", "send Authorization: Bearer TOKEN (qrcheckin-server token add)", extra: [("WWW-Authenticate", "Bearer realm=\"qrcheckin\"")])
        }
        let fields = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard fields.count == 2, fields[0].lowercased() == "bearer", let secret = APITokenSecret(fields[1].trimmingSpaces) else {
            return Self.problem(401, "Unauthorized", "the Authorization header is not Bearer qrc_…",
                                extra: [("WWW-Authenticate", "Bearer realm=\"qrcheckin\", error=\"invalid_token\"")])
        }
        let found: APIToken?
        do throws(LedgerError) {
            found = try await parts.tokens.token(secretHash: secret.hash(parts.crypto.digest))
        } catch {
            return Self.unavailable()
        }
        guard let token = found else {
            return Self.problem(401, "Unauthorized", "no such token (removed, or never added)",
                                extra: [("WWW-Authenticate", "Bearer realm=\"qrcheckin\", error=\"invalid_token\"")])
        }
        let now = parts.clock.now()
        guard parts.apiRate.admit(token.name, now: now.milliseconds) else {
            let wait = parts.apiRate.wait(token.name, now: now.milliseconds)
            return Self.problem(429, "Too Many Requests", "this token's rate limit: try again in \((wait + 999) / 1000) s",
                                extra: [("Retry-After", "\(max(1, (wait + 999) / 1000))")])
        }
        if let needed = route.scope, !token.allows(needed) {
            return Self.problem(403, "Forbidden", "this token's scope is \(token.scope.rawValue); this call needs \(needed.rawValue)")
        }
        let trail = AuditTrail(ledger: parts.transactions, actor: Operator(name: token.name, source: "api \(http.client)"), clock: parts.clock)
        let call = Call(parts: parts, http: http, token: token, trail: trail, now: now)
        switch route {
        case .checkIns: return await call.checkIns()
        case .checkIn: return await call.checkIn()
        case .checkOut(let id): return await call.checkOut(id)
        case .venues: return await call.venues()
        case .inside(let venue): return await call.inside(venue)
        case .openAPI, .methodNotAllowed, .notFound: return Self.problem(404, "Not Found", "no such endpoint")
        }
    }

    /// A problem details answer (RFC 9457): `type` about:blank, the status's `title`, what went wrong.
    static func problem(_ status: Int, _ title: String, _ detail: String, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        let body = JSONValue.object([("type", .string("about:blank")), ("title", .string(title)), ("status", .number(Int64(status))),
                                     ("detail", .string(detail))])
        return HTTPResponse(status: status, headers: [("Content-Type", "application/problem+json")] + extra + headers,
                            body: body.serializedBytes)
    }

    /// The ledger does not answer: 503, try again in 5 s.
    static func unavailable() -> HTTPResponse {
        problem(503, "Service Unavailable", "the visitor log does not answer now; try again in a moment", extra: [("Retry-After", "5")])
    }

    /// A JSON answer.
    static func json(_ status: Int, _ body: [UInt8], extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + extra + headers, body: body)
    }

    /// Every answer's: never cached (a token's data), the security headers.
    static let headers: [(name: String, value: String)] = HTTPResponse.securityHeaders
}

/// One authorised call: the token, its trail and the request.
private struct Call {
    let parts: ConsoleSite.Parts
    let http: HTTPRequest
    let token: APIToken
    let trail: AuditTrail
    let now: WallTime

    /// A venue this token may not see: 403 (it exists or not, the token cannot tell).
    func forbidden(_ venue: VenueID) -> HTTPResponse {
        APIHandler.problem(403, "Forbidden", "this token does not cover venue \(venue)")
    }

    /// A bad parameter: 400 naming it.
    func bad(_ name: String, _ why: String) -> HTTPResponse {
        APIHandler.problem(400, "Bad Request", "\(name): \(why)")
    }

    /// Check-ins as the export's JSON objects.
    func objects(_ checkIns: [CheckIn], into out: inout [UInt8]) {
        var export = CheckInExport(format: .jsonl, zone: parts.zone)
        out.append(UInt8(ascii: "["))
        for (index, checkIn) in checkIns.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            export.write(checkIn, to: &out)
            out.removeLast()  // the line's end
        }
        out.append(UInt8(ascii: "]"))
    }

    // MARK: GET /api/v1/checkins

    func checkIns() async -> HTTPResponse {
        let known: Set<String> = ["venue", "from", "until", "after", "limit"]
        if let unknown = http.query.keys.sorted().first(where: { !known.contains($0) }) {
            return bad(unknown, "no such parameter (venue, from, until, after, limit)")
        }
        if let count = http.queryArguments, count > http.query.count {
            return bad("query", "a parameter this call does not take (venue, from, until, after, limit), or one given twice")
        }
        var query = CheckInQuery()
        if let text = http.query["venue"] {
            guard let venue = try? VenueID(text) else { return bad("venue", "not a venue id") }
            guard token.covers(venue) else { return forbidden(venue) }
            query.venue = venue
        } else if token.venues.count == 1 {
            query.venue = token.venues[0]
        } else if !token.venues.isEmpty {
            return bad("venue", "this token covers \(token.venues.map(\.rawValue).joined(separator: ", ")): name one")
        }
        for (name, keyPath) in [("from", \CheckInQuery.from), ("until", \CheckInQuery.until)] {
            guard let text = http.query[name] else { continue }
            guard let time = ISO8601DateTime(text), let seconds = time.unixSeconds else {
                return bad(name, "not an RFC 3339 time with its offset (2026-11-30T18:00:00+09:00)")
            }
            query[keyPath: keyPath] = WallTime(seconds: seconds)
        }
        var position: LogPosition?
        if let text = http.query["after"] {
            guard let cursor = APICursor(text) else { return bad("after", "not a cursor this API gave (next)") }
            position = cursor.position
        }
        var limit = APIHandler.defaultLimit
        if let text = http.query["limit"] {
            guard let number = Int(text), (1...APIHandler.maximumLimit).contains(number) else {
                return bad("limit", "a whole number from 1 to \(APIHandler.maximumLimit)")
            }
            limit = number
        }
        query.limit = limit + 1
        let selection = query
        let rows: [CheckIn]
        do throws(LedgerError) {
            // One read of one page (no transaction held across pages), audited before it leaves.
            rows = try await VisitorLogExport(trail: trail, log: parts.log).page(subject: query.venue.map { "venue \($0)" }, detail: "api checkins") { log throws(LedgerError) in
                Array(try await log.checkIns(selection, after: position).prefix(limit + 1))
            }
        } catch {
            return APIHandler.unavailable()
        }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { APICursor(LogPosition(after: $0)).text } : nil
        var out = Array("{\"checkins\":".utf8)
        objects(page, into: &out)
        out += Array(",\"next\":".utf8)
        (next.map(JSONValue.string) ?? .null).write(to: &out)
        out.append(UInt8(ascii: "}"))
        return APIHandler.json(200, out)
    }

    // MARK: GET /api/v1/venues

    func venues() async -> HTTPResponse {
        guard http.query.isEmpty, (http.queryArguments ?? 0) == 0 else { return bad("query", "this call takes no parameters") }
        let dayStart = CalendarDay(containing: now, in: parts.zone).midnight(in: parts.zone)
        let tallies: [CheckInTally]
        let presence: [LiveCounts.Presence]
        do throws(LedgerError) {
            tallies = try await parts.log.tally(CheckInQuery(from: dayStart))
            presence = try await LiveCounts.presence(from: parts.visits, venues: parts.venues, at: now)
            try await trail.record(AuditNote(.apiRead, subject: nil, detail: "venues"), at: now)
        } catch {
            return APIHandler.unavailable()
        }
        var today: [VenueID: Int] = [:], inside: [VenueID: Int] = [:]
        for tally in tallies { today[tally.venue, default: 0] += tally.count }
        for venue in presence { inside[venue.venue] = venue.inside }
        let all = Set(today.keys).union(inside.keys).union(parts.venues.profiles.keys).filter(token.covers)
        let list = all.sorted { $0.rawValue < $1.rawValue }.map { venue -> JSONValue in
            let profile = parts.venues.profile(for: venue)
            return .object([("venue", .string(venue.rawValue)), ("name", .string(profile?.name(of: venue) ?? venue.rawValue)),
                            ("inside", .number(Int64(inside[venue] ?? 0))),
                            ("capacity", profile?.presence.capacity.map { .number(Int64($0)) } ?? .null),
                            ("today", .number(Int64(today[venue] ?? 0)))])
        }
        return APIHandler.json(200, JSONValue.object([("venues", .array(list))]).serializedBytes)
    }

    // MARK: GET /api/v1/venues/{venue}/inside

    func inside(_ venue: VenueID) async -> HTTPResponse {
        guard http.query.isEmpty, (http.queryArguments ?? 0) == 0 else { return bad("query", "this call takes no parameters") }
        guard token.covers(venue) else { return forbidden(venue) }
        var visits: [CheckIn] = []
        do throws(LedgerError) {
            try await EvacuationRoll(trail: trail, visits: parts.visits, venues: parts.venues).run(venue: venue, detail: "api inside") { visit throws(LedgerError) in
                visits.append(visit)
                return true
            }
        } catch {
            return APIHandler.unavailable()
        }
        var out = Array("{\"venue\":".utf8)
        JSONValue.string(venue.rawValue).write(to: &out)
        out += Array(",\"inside\":".utf8)
        objects(visits, into: &out)
        out.append(UInt8(ascii: "}"))
        return APIHandler.json(200, out)
    }

    // MARK: POST /api/v1/checkins

    func checkIn() async -> HTTPResponse {
        guard (http.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
            return APIHandler.problem(415, "Unsupported Media Type", "send the check-in as application/json")
        }
        if http.bodyTooLarge { return APIHandler.problem(413, "Content Too Large", "the body is too large") }
        let body: JSONValue
        do throws(JSONParser.Failure) {
            body = try JSONParser.parse(http.body)
        } catch {
            return bad("body", error.description)
        }
        guard case .object(let members) = body else { return bad("body", "not a JSON object") }
        let allowed: Set<String> = ["venue", "name", "phone"]
        if let unknown = members.map(\.0).first(where: { !allowed.contains($0) }) { return bad(unknown, "no such member (venue, name, phone)") }
        guard let venueText = body["venue"]?.string, let venue = try? VenueID(venueText) else { return bad("venue", "a venue id is needed") }
        guard token.covers(venue) else { return forbidden(venue) }
        guard let profile = parts.venues.profile(for: venue) else { return bad("venue", "this server does not serve venue \(venue)") }
        var name: String?
        if let member = body["name"], member != .null {
            guard let typed = member.string, let accepted = Visitor.acceptableName(typed) else { return bad("name", "not a name this log keeps") }
            name = accepted
        }
        var phone: String?
        if let member = body["phone"], member != .null {
            guard let text = member.string, let digits = Visitor.normalizedPhone(text) else { return bad("phone", "not a phone number") }
            phone = digits
        }
        let visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        let admission: Admission
        do throws(LedgerError) {
            admission = try await StaffCheckIn(trail: trail).record(venue: venue, visitor: visitor, profile: profile)
        } catch {
            return APIHandler.unavailable()
        }
        switch admission {
        case .full(let inside):
            let capacity = profile.presence.capacity ?? inside
            return APIHandler.problem(409, "Conflict", "venue \(venue) is full: \(inside) inside of \(capacity)")
        case .admitted(let outcome):
            var out: [UInt8] = []
            var export = CheckInExport(format: .jsonl, zone: parts.zone)
            export.write(outcome.checkIn, to: &out)
            out.removeLast()
            return APIHandler.json(201, out)
        }
    }

    // MARK: POST /api/v1/checkins/{id}/checkout

    func checkOut(_ id: Int64) async -> HTTPResponse {
        let report: CheckOutReport
        do throws(LedgerError) {
            // The visit's venue first: a token that does not cover it ends nothing.
            guard let visit = try await parts.visits.find(id: id) else {
                return APIHandler.problem(404, "Not Found", "no check-in \(id)")
            }
            guard token.covers(visit.venue) else { return forbidden(visit.venue) }
            report = try await StaffCheckOut(trail: trail).run(.checkIn(id))
        } catch {
            return APIHandler.unavailable()
        }
        guard let visit = report.visit else { return APIHandler.problem(404, "Not Found", "no check-in \(id)") }
        var out: [UInt8] = []
        var export = CheckInExport(format: .jsonl, zone: parts.zone)
        export.write(visit, to: &out)
        out.removeLast()
        return APIHandler.json(200, out)
    }
}

/// The `next` cursor: where a page ended, as `MS.ID` (the last row's time in milliseconds and
/// its id). Opaque to clients: they send back what they were given.
struct APICursor: Equatable {
    let position: LogPosition

    init(_ position: LogPosition) {
        self.position = position
    }

    /// The cursor `text` spells; nil when it is not one.
    init?(_ text: String) {
        let fields = text.split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 2, fields.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
              let milliseconds = Int64(fields[0]), let id = Int64(fields[1]), CheckInIDCipher.ids.contains(id) else { return nil }
        position = LogPosition(time: WallTime(milliseconds: milliseconds), id: id)
    }

    var text: String { "\(position.time.milliseconds).\(position.id)" }
}

extension Substring {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
