import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server kiosks`: the kiosks that report to this ledger (`qrcheckin report`), judged
/// now; `kiosks set` steers one (audited with the operator's user name), `kiosks forget`
/// removes a retired one.
struct KiosksCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "kiosks",
        summary: "List the kiosks that report here, judged now; steer one (set) or forget a retired one.",
        operands: [.words("[list | set VENUE KIOSK | forget VENUE KIOSK]")],
        options: LedgerCommandOptions.options() + [
            OptionSpec("venue", value: "VENUE", help: "list: only this venue's kiosks."),
            OptionSpec("format", short: "f", value: "FORMAT", help: "list: table or json (default table)."),
            OptionSpec("refresh", value: "MODE", help: "set: auto (codes rotate) or pause (the code on screen stays)."),
            OptionSpec("shake", value: "MODE", help: "set: on or off."),
            OptionSpec("new-code", help: "set: show a fresh code now."),
        ],
        positionals: 0...3,
        discussion: """
            Each kiosk's reporter (qrcheckin report, report-to pointing at this server) sends a
            signed report every interval; the server keeps each kiosk's latest report (no
            history) in the ledger. list judges them now: state ok (reporting), late (no report
            for two of its intervals) or offline (none for 10 minutes), and the problems its
            latest report shows, in words: shows an expired code, clock N s fast or slow, not
            synchronised, paused, degraded, old version. json is one array of objects with the
            keys venue, kiosk, state, lastSeen, silenceSeconds, clockSkewSeconds, window,
            expectedWindow, sequence, refresh, shake, health, reason, status, version, problems,
            problemCodes and steer. set gives a kiosk a steer that its reporter applies through
            the daemon's control socket at its next report (within a few seconds while one is
            held open), naming you (your user name, as sudo tells) as who changed the mode;
            it is written to the audit log. forget removes a kiosk's report and steer (audited);
            a kiosk that reports again is listed again. A report carries no visitor data.

            EXIT STATUS: 0 every kiosk ok with no problem (also when none reports); 1 (list) a
            kiosk is late or has a problem, (set, forget) no such kiosk has reported; 2 (list)
            a kiosk is offline; 64 bad command line; 65 the database is not a ledger; 66 the
            database does not exist; 77 permission denied; 78 a bad setting, or a ledger of a
            newer version.
            """
    )

    enum Action: String, CaseIterable {
        case list, set, forget
    }

    let ledgerOptions: LedgerCommandOptions
    let venues: VenueDirectory
    let action: Action
    let key: KioskKey?
    let venue: VenueID?
    let json: Bool
    let change: KioskSteerChange

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        venues = try ServerConfiguration.venues(ledgerOptions.layers)
        let words = arguments.positionals
        guard let action = words.isEmpty ? .list : Action(rawValue: words[0]) else {
            throw .usage("unknown action \(Quoted(words[0])): list, set or forget")
        }
        self.action = action
        if action == .list {
            guard words.count <= 1 else { throw .usage("list takes no VENUE or KIOSK (--venue V lists one venue's)") }
            key = nil
        } else {
            guard words.count == 3 else { throw .usage("\(action.rawValue) needs VENUE and KIOSK") }
            let venue: VenueID
            let name: KioskName
            do {
                venue = try VenueID(words[1])
                name = try KioskName(words[2])
            } catch {
                throw .usage("\(error)")
            }
            key = KioskKey(venue: venue, name: name)
        }
        venue = try arguments["venue"].map { text throws(CommandError) in try ServerConfiguration.venue(text, .flag("venue")) }
        switch arguments["format"] {
        case nil, "table": json = false
        case "json": json = true
        case let other?: throw .usage("--format must be table or json, got \(Quoted(other))")
        }
        let refresh: RefreshMode? = switch arguments["refresh"] {
        case nil: nil
        case "auto": .auto
        case "pause", "paused": .paused
        case let other?: throw .usage("--refresh must be auto or pause, got \(Quoted(other))")
        }
        let shake: ShakeMode? = switch arguments["shake"] {
        case nil: nil
        case "on": .on
        case "off": .off
        case let other?: throw .usage("--shake must be on or off, got \(Quoted(other))")
        }
        change = KioskSteerChange(refresh: refresh, shake: shake, newCode: arguments.has("new-code"))
        if action == .set && change.isEmpty { throw .usage("set needs --refresh, --shake or --new-code") }
        if action != .set && !change.isEmpty { throw .usage("--refresh, --shake and --new-code go with set") }
        if action != .list && (venue != nil || arguments["format"] != nil) { throw .usage("--venue and --format go with list") }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        switch action {
        case .list:
            let ledger = try await ledgerOptions.openLedgerForReading(clock: clock) { why in
                context.logger.warning("the ledger cannot be opened for writing (\(why)); reading it read-only")
            }.ledger
            let fleet = try Self.fleet(ledger)
            let records = try await ledgerCall { [venue] () async throws(LedgerError) in try await fleet.kiosks(venue: venue) }
            let listing = KioskListing(records: records, judge: KioskJudge(venues: venues, serverVersion: ServerProgram.version), now: clock.now())
            try context.output(json ? listing.json : listing.table)
            let worst = listing.worst
            if worst.state == .offline { return .offline }
            return worst.state == .late || worst.problems ? .failure : .success
        case .set:
            let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
            let key = key!
            let steering = KioskSteering(trail: AuditTrail.shell(ledger, context, clock: clock))
            guard let steer = try await ledgerCall({ [change] () async throws(LedgerError) in try await steering.run(key, change) }) else {
                context.logger.error("no kiosk \(key) has reported to this ledger (qrcheckin-server kiosks lists those that have)")
                return .failure
            }
            try context.output("steer \(steer.id) for \(key): \(change) by \(steer.by); the kiosk applies it at its next report\n")
            return .success
        case .forget:
            let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
            let key = key!
            let forgetting = KioskForgetting(trail: AuditTrail.shell(ledger, context, clock: clock))
            guard try await ledgerCall({ () async throws(LedgerError) in try await forgetting.run(key) }) else {
                context.logger.error("no kiosk \(key) has reported to this ledger")
                return .failure
            }
            try context.output("forgot \(key): listed again if it reports again\n")
            return .success
        }
    }

    static func fleet(_ ledger: any Ledger) throws(CommandError) -> any KioskFleet {
        ledger
    }
}
