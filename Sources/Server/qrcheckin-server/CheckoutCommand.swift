import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server checkout`: staff end one visit (`--checkin ID`) or every open visit at a
/// venue (`--venue V --all`: the end of the day, after an evacuation), recorded as `staff`
/// and in the audit log.
struct CheckoutCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "checkout",
        summary: "Record a staff check-out: one visit, or every open visit at a venue.",
        operands: [.oneOf([.option("checkin"), .together([.option("venue"), .option("all")])])],
        options: LedgerCommandOptions.options() + [
            OptionSpec("checkin", value: "ID", help: "End this visit (the receipt's number)."),
            OptionSpec("venue", value: "VENUE", help: "With --all: end every open visit at this venue."),
            OptionSpec("all", help: "With --venue: every open visit there."),
        ],
        discussion: """
            Records the exit of visit ID now, kind staff, or with --venue V --all of every visit
            still open at V. A visit already out is left as it was (its exit is printed), and
            its device's next scan starts a new visit. Each run is recorded in the audit log
            (who, when, which visit or venue, how many).

            EXIT STATUS: 0 done (also when nothing was open); 64 bad command line; 65 no such
            check-in, or the database is not a ledger; 66 the database does not exist; 74 the
            disk is full; 75 the database stayed locked; 77 permission denied; 78 a bad
            setting, or a ledger of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let target: CheckOutTarget

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        switch (arguments["checkin"], arguments["venue"]) {
        case (let id?, nil):
            guard !arguments.has("all") else { throw .usage("--all goes with --venue, not --checkin") }
            guard let number = Int64(id), number > 0, id.first != "+" else { throw .usage("--checkin must be a check-in id (a receipt's number), got '\(id)'") }
            target = .checkIn(number)
        case (nil, let venue?):
            guard arguments.has("all") else { throw .usage("--venue ends every open visit there: say so with --all") }
            target = .venue(try ServerConfiguration.venue(venue, .flag("venue")))
        default:
            throw .usage("give --checkin ID, or --venue VENUE --all")
        }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
        // The exits and their audit entry are one transaction (`StaffCheckOut`).
        let report = try await ledgerCall { () async throws(LedgerError) in try await StaffCheckOut(trail: AuditTrail.shell(ledger, context, clock: clock)).run(target) }
        if case .checkIn(let id) = target, report.visit == nil { throw CommandError(.dataError, "no check-in \(id) in the log") }
        let zone = SystemZone()
        if let visit = report.visit, let exit = visit.exit {
            let local = LocalTime(exit.time, in: zone)
            let minutes = visit.stayMilliseconds(now: exit.time) / 60_000
            let said = report.closed == 0 ? "already checked out" : "checked out"
            try context.output("\(said): check-in \(visit.id) at \(visit.venue), \(local.date) \(local.minute) \(local.offset) (\(exit.kind.rawValue)), stayed \(minutes) min\n")
        } else {
            let venue = if case .venue(let venue) = target { venue.rawValue } else { "-" }
            try context.output("checked out \(report.closed) visit\(report.closed == 1 ? "" : "s") at \(venue)\n")
        }
        return .success
    }
}
