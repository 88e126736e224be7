import ServerDomain
import ServerWebhooks
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import SharedText

/// `qrcheckin-server webhook`: the endpoints other systems hear check-ins at (issue 40), kept in
/// the ledger (every server of one PostgreSQL sends to them); every change is in the audit log.
struct WebhookCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "webhook",
        summary: "Manage webhook endpoints: add, list, remove, disable, enable, rotate-secret, test, deliveries, redeliver.",
        operands: [.words("(add NAME URL | list | remove NAME | disable NAME | enable NAME | rotate-secret NAME | test NAME | deliveries NAME | redeliver NAME)")],
        options: LedgerCommandOptions.options() + [
            OptionSpec("events", value: "LIST", help: "add: the events it hears, of checkin, checkout, refused, full, kiosk (default checkin,checkout)."),
            OptionSpec("venue", value: "VENUE", repeatable: true, help: "add: only events at VENUE (repeat for more; default every venue)."),
            OptionSpec("personal", help: "add: payloads carry the visitor's name and phone (else they carry no personal data)."),
            OptionSpec("event", value: "ID", help: "redeliver: only this event (any state; default every failed event)."),
            OptionSpec("limit", value: "N", help: "deliveries: the newest N attempts (default 50)."),
        ],
        positionals: 1...3,
        discussion: """
            serve POSTs each event to each endpoint that hears it, signed as Standard Webhooks
            sign (webhook-id, webhook-timestamp, webhook-signature: v1, and the base64 HMAC-SHA256
            of id.timestamp.body under the endpoint's whsec_ secret), and retries a failure after
            5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, then marks it failed. A 410
            answer disables the endpoint. add and rotate-secret print the secret once: give it to
            the receiver; it is not shown again. Events are written in the transaction of the
            check-in, exit or refusal they report: a crash delays an event, never loses one.
            Payloads carry no name or phone unless the endpoint was added with --personal.

            EXIT STATUS: 0 done; 1 (add) the endpoint exists, (others) no such endpoint; 64 bad
            command line; 65 a database that is not a ledger; 66 the database does not exist;
            77 permission denied; 78 a bad setting, or a ledger of a newer version.
            """
    )

    enum Action: String, CaseIterable {
        case add, list, remove, disable, enable, rotateSecret = "rotate-secret", test, deliveries, redeliver
    }

    let ledgerOptions: LedgerCommandOptions
    let action: Action
    let name: String?
    let url: String?
    let events: Set<WebhookEventType>
    let venues: [VenueID]
    let personal: Bool
    let event: Int64?
    let limit: Int
    let operatorName: String

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        guard let action = Action(rawValue: arguments.positionals[0]) else {
            throw .usage("unknown action \(Quoted(arguments.positionals[0])): \(Action.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.action = action
        let operands = Array(arguments.positionals.dropFirst())
        switch action {
        case .list:
            guard operands.isEmpty else { throw .usage("list takes no NAME") }
        case .add:
            guard operands.count == 2 else { throw .usage("add needs NAME and URL") }
        default:
            guard operands.count == 1 else { throw .usage("\(action.rawValue) needs the endpoint's NAME alone") }
        }
        name = operands.first
        if let name, !WebhookEndpoint.isValidName(name) {
            throw .usage("NAME must be 1-64 letters, digits, '.', '_' or '-'; got \(Quoted(name))")
        }
        url = operands.count > 1 ? operands[1] : nil
        if let url, !WebhookEndpoint.isValidURL(url) { throw .usage("URL must be http:// or https:// and a host; got \(Quoted(url))") }
        if action != .add && (arguments["events"] != nil || !arguments.all("venue").isEmpty || arguments.has("personal")) {
            throw .usage("--events, --venue and --personal go with add")
        }
        switch WebhookEventType.parse(arguments["events"] ?? "checkin,checkout") {
        case .success(let parsed): events = parsed
        case .failure(let error): throw .usage(error.message)
        }
        var venues: [VenueID] = []
        for text in arguments.all("venue") {
            do { venues.append(try VenueID(text)) } catch { throw .usage("--venue: \(error)") }
        }
        self.venues = venues
        personal = arguments.has("personal")
        if let text = arguments["event"] {
            guard action == .redeliver, let id = Int64(text), id > 0 else { throw .usage("--event ID goes with redeliver (a positive number)") }
            event = id
        } else {
            event = nil
        }
        limit = try arguments.integer("limit", in: 1...10_000) ?? 50
        operatorName = OperatorIdentity.current(environment: context.environment)
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let opened = try await ledgerOptions.openLedger(create: action == .add, clock: clock)
        let ledger = opened.ledger
        guard let webhooks = ledger as? any WebhookLedger else { throw CommandError(.software, "this ledger keeps no webhooks") }
        let changes = WebhookChanges(trail: AuditTrail(ledger: ledger, actor: .shell(operatorName), clock: clock))
        switch action {
        case .list: return try await list(webhooks, context)
        case .deliveries: return try await deliveries(webhooks, context)
        default: break
        }
        let name = name!
        switch action {
        case .add:
            let secret = WebhookSigner.newSecret()
            let endpoint = WebhookEndpoint(name: name, url: url!, secret: secret, events: events, venues: venues, personal: personal, created: clock.now())
            guard try await ledgerCall({ () async throws(LedgerError) in try await changes.add(endpoint) }) else {
                context.error("a webhook \(name) exists already; nothing changed")
                return .failure
            }
            try context.output("added webhook \(name): \(endpoint.url)\nsecret (shown once; give it to the receiver): \(secret.text)\n")
        case .rotateSecret:
            let secret = WebhookSigner.newSecret()
            guard try await ledgerCall({ () async throws(LedgerError) in try await changes.rotateSecret(named: name, secret) }) else { return missing(name, context) }
            try context.output("new secret of \(name) (shown once; events from now on are signed with it): \(secret.text)\n")
        case .remove, .disable, .enable:
            let done = try await ledgerCall { () async throws(LedgerError) in
                action == .remove ? try await changes.remove(named: name) : try await changes.setDisabled(named: name, action == .disable)
            }
            guard done else { return missing(name, context) }
            let said = switch action {
            case .remove: "removed webhook \(name), its pending events and its delivery log"
            case .disable: "disabled webhook \(name): nothing is sent to it until enable"
            default: "enabled webhook \(name)"
            }
            try context.output(said + "\n")
        case .test:
            guard let id = try await ledgerCall({ () async throws(LedgerError) in try await changes.test(named: name) }) else { return missing(name, context) }
            try context.output("queued test event msg_\(id) for \(name); serve sends it (see: qrcheckin-server webhook deliveries \(name))\n")
        case .redeliver:
            guard let count = try await ledgerCall({ () async throws(LedgerError) in try await changes.redeliver(named: name, event: event) }) else {
                return missing(name, context)
            }
            try context.output("queued \(count) event\(count == 1 ? "" : "s") of \(name) again\n")
        case .list, .deliveries:
            break
        }
        return .success
    }

    private func missing(_ name: String, _ context: CommandContext) -> ExitCode {
        context.error("no webhook \(name)")
        return .failure
    }

    private func list(_ webhooks: any WebhookLedger, _ context: CommandContext) async throws(CommandError) -> ExitCode {
        let (endpoints, counts) = try await ledgerCall { () async throws(LedgerError) in
            (try await webhooks.webhookEndpoints(), try await webhooks.webhookCounts())
        }
        var text = "name\turl\tevents\tvenues\tpersonal\tstate\n"
        for endpoint in endpoints {
            let events = WebhookEventType.allCases.filter(endpoint.events.contains).map(\.rawValue).joined(separator: ",")
            let venues = endpoint.venues.isEmpty ? "*" : endpoint.venues.map(\.rawValue).joined(separator: ",")
            let state = endpoint.disabled.map { "disabled \(UTCTime.iso8601($0.time.seconds)) (\($0.reason))" } ?? "enabled"
            text += "\(endpoint.name)\t\(endpoint.url)\t\(events)\t\(venues)\t\(endpoint.personal ? "yes" : "no")\t\(state)\n"
        }
        text += "events: \(counts.pending) pending, \(counts.delivered) delivered, \(counts.failed) failed\n"
        try context.output(text)
        return .success
    }

    private func deliveries(_ webhooks: any WebhookLedger, _ context: CommandContext) async throws(CommandError) -> ExitCode {
        let name = name!
        let limit = limit
        let (endpoints, attempts) = try await ledgerCall { () async throws(LedgerError) in
            (try await webhooks.webhookEndpoints(), try await webhooks.webhookAttempts(endpoint: name, limit: limit))
        }
        guard endpoints.contains(where: { $0.name == name }) else { return missing(name, context) }
        var text = "time\tevent\tstatus\tms\tanswer\n"
        for attempt in attempts {
            let answer = attempt.answer.prefix(80).map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 }
            text += "\(UTCTime.iso8601(attempt.time.seconds))\tmsg_\(attempt.event)\t\(attempt.status.map(String.init) ?? "-")\t\(attempt.milliseconds)\t\(String(answer))\n"
        }
        try context.output(text)
        return .success
    }
}
