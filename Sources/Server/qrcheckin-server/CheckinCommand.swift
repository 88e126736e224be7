import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server checkin`: door staff check a visitor in by hand (no phone, a paper list,
/// a group), recorded with method `staff` and the operator's user name as the audit trail.
struct CheckinCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "checkin",
        summary: "Record a staff check-in (a visitor without a phone), with your user name.",
        operands: [.option("venue")],
        options: LedgerCommandOptions.options() + [
            OptionSpec("venue", value: "VENUE", help: "The venue checked in to (required)."),
            OptionSpec("name", value: "NAME", help: "The visitor's name, as the visitor log should show it."),
            OptionSpec("phone", value: "NUMBER", help: "The visitor's phone number (010-1234-5678; kept as digits)."),
            OptionSpec("new-venue", help: "VENUE is new: no check-in there yet and no setting names it (else refused: a typo)."),
            OptionSpec("over-capacity", help: "Admit even when the venue holds its capacity (recorded in the audit log)."),
        ],
        discussion: """
            Records one check-in at VENUE now, method staff: no code and no device, so it is
            never a duplicate (run it once per visitor). The operator column holds the user
            who ran it: the real user id's name, or with sudo the user who ran sudo
            (SUDO_USER). It is kept, exported and deleted like every check-in. The venue
            must be one the server serves (the venues setting), and one it knows: named by a
            setting (venues, name.VENUE or any other per-venue key) or holding check-ins
            already (or kept counts of purged ones). A master secret signs every venue, so
            without that check a typo (HALL-7 for HALL-1) would start a phantom venue; --new-venue
            records the first check-in of a venue no setting names. The database is created
            if it does not exist yet, as 'serve' would create it. A venue holding its
            capacity (capacity.VENUE) admits nobody more (exit 75) unless --over-capacity says
            so; such an admission is recorded in the audit log as over-capacity.

            EXIT STATUS: 0 recorded; 64 bad command line (no --venue, a name the visitor form
            would refuse: over 64 characters, or with control or format characters; a phone
            that is not 7-15 digits); 65 the
            venue is unknown (no setting names it, no check-in there, no --new-venue), or the
            database is not a ledger; 73 the database cannot be created; 74 the disk is
            full; 75 the database stayed locked, or the venue is full; 77 permission denied; 78 a bad setting, or
            a ledger of a newer version.
            """
    )

    let configuration: ServerConfiguration
    let venue: VenueID
    let visitor: Visitor?
    /// Whether a venue no setting names and with no check-in yet may be checked in to.
    let newVenue: Bool
    let overCapacity: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        configuration = try ServerConfiguration(arguments, environment: context.environment)
        guard let venueText = arguments["venue"] else { throw .usage("--venue is required: the venue the visitor checks in to") }
        venue = try ServerConfiguration.venue(venueText, .flag("venue"))
        guard configuration.venues.profile(for: venue) != nil else {
            throw .usage("--venue: \(venue) is not a venue this server serves (see the venues setting)")
        }
        // Kept as the visitor form keeps a name (one rule: `Visitor.acceptableName`).
        let name = try arguments["name"].map { typed throws(CommandError) in
            guard let accepted = Visitor.acceptableName(typed) else {
                throw .usage("--name must be 1-\(Visitor.maximumNameLength) characters without control or format characters "
                             + "(tabs, line breaks, bidirectional or zero-width ones), as the visitor form asks")
            }
            return accepted
        }
        var phone: String?
        if let text = arguments["phone"] {
            guard let digits = Visitor.normalizedPhone(text) else {
                throw .usage("--phone must be a phone number of 7-15 digits (010-1234-5678, +82 10 1234 5678)")
            }
            phone = digits
        }
        visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        newVenue = arguments.has("new-venue")
        overCapacity = arguments.has("over-capacity")
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let ledger = try await configuration.ledger.openLedger(create: true, clock: clock).ledger
        if !newVenue, configuration.venues.profiles[venue] == nil, !(try await Self.holdsCheckIns(at: venue, ledger)) {
            throw CommandError(.dataError, "unknown venue \(venue): no setting names it and it has no check-in yet (a typo?); "
                               + "add --new-venue to record its first check-in")
        }
        let trail = AuditTrail.shell(ledger, context, clock: clock)
        let profile = configuration.venues.profile(for: venue)
        // The check-in and its audit entry (over-capacity when the venue was full) are one transaction.
        let admission = try await ledgerCall { () async throws(LedgerError) in
            try await StaffCheckIn(trail: trail).record(venue: venue, visitor: visitor, profile: profile, overCapacity: overCapacity)
        }
        guard case .admitted(let outcome) = admission else {
            let inside = if case .full(let inside) = admission { inside } else { 0 }
            throw CommandError(.tempFail, "\(venue) is full (\(inside) of \(profile?.presence.capacity ?? inside) inside); --over-capacity admits anyway")
        }
        let checkIn = outcome.checkIn
        let local = LocalTime(checkIn.time, in: SystemZone())
        try context.output("checked in at \(venue) (check-in \(checkIn.id), \(local.date) \(local.second) \(local.offset), by \(trail.actor.name))\n")
        return .success
    }

    /// Whether `venue` has a check-in in `ledger`, or a kept count of purged ones.
    private static func holdsCheckIns(at venue: VenueID, _ ledger: any VisitLog) async throws(CommandError) -> Bool {
        try await ledgerCall { () async throws(LedgerError) in
            if !(try await ledger.checkIns(CheckInQuery(venue: venue, limit: 1), after: nil)).isEmpty { return true }
            return !(try await ledger.keptCounts(venue: venue)).isEmpty
        }
    }
}
