import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedSystem

/// `qrcheckin-server erase`: deletes one visitor's check-ins on request (by the device id the
/// export shows, a collected phone number, or a receipt's number), or one check-in alone. It
/// shows what it will erase first and erases only once the operator said yes (or `--yes`).
struct EraseCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "erase",
        summary: "Erase one visitor's check-ins (by receipt, device or phone), after showing them.",
        operands: [.oneOf([.option("checkin"), .option("device"), .option("phone")])],
        options: LedgerCommandOptions.options() + [
            OptionSpec("checkin", value: "ID", help: "Every check-in of the visitor of check-in ID (the receipt's number): its device's, else its phone number's."),
            OptionSpec("only", help: "With --checkin: check-in ID alone."),
            OptionSpec("device", value: "ID", help: "Every check-in of this device (the device column of 'checkins'; a prefix that names one device)."),
            OptionSpec("phone", value: "NUMBER", help: "Every check-in that recorded this phone number (any spelling: 010-1234-5678)."),
            OptionSpec("dry-run", help: "Show what would be erased; erase nothing."),
            OptionSpec("yes", short: "y", help: "Erase without asking (for scripts; without it, the command asks on a terminal)."),
        ],
        discussion: """
            Shows what it will erase, then erases it once you answer y on the terminal (or at
            once with --yes): how many check-ins, and how many per day (this host's, TZ) and
            venue. Never the whole phone number or device id: its last four digits, its first
            16 characters.

            --device takes a device id as the DEVICE column of 'checkins --format table' shows
            it (16 characters), the whole id of the CSV and JSON exports, or any prefix that
            begins the id of exactly one device with check-ins; a prefix that begins several is
            refused with the matches listed.

            A visitor knows no device id, but their receipt's address ends in its check-in
            number (BASE-PATH/VENUE/receipt/ID): --checkin ID selects every check-in of that
            receipt's device across all venues and days, or, for one without a device, every
            check-in with its phone number, or, for one with neither, that check-in alone.
            --only selects check-in ID alone (an entry staff typed wrong). With every check-in
            go the keys that would make the device's next scan a duplicate. Deletion is real,
            as with purge (secure_delete, the write-ahead log truncated). Kept daily counts
            are numbers only and stay.

            Each erasure is written to the audit log in its own transaction (who, when, which
            visitor as this command names it, how many), and so is each preview shown
            (--dry-run, and the one before the question): an erasure or a preview the log
            cannot take (a full disk) does not happen (exit 74).

            EXIT STATUS: 0 erased, or --dry-run shown; 1 the answer was not yes (nothing erased); 64 bad command line (not
            exactly one of --checkin, --device and --phone, a malformed one, --only without
            --checkin, --dry-run with --yes), or standard input is not a terminal and --yes was
            not given (nothing erased); 65 nothing matches (no check-in ID, no device with that
            id or prefix, no check-in with that phone number: never recorded, purged or erased
            already), a device prefix matches several devices, or the database is not a ledger; 66 the database does not exist;
            74 the audit log cannot take the entry (a full disk: nothing shown or erased); 75
            the database stayed locked; 77 permission denied; 78 a bad setting.
            """
    )

    /// Whose check-ins: a subject, or the one of a check-in found at run time.
    enum Target: Equatable {
        case subject(ErasureSubject)
        /// The one device whose id is, or begins with, the text (`DeviceID.shown`).
        case device(prefix: DeviceID)
        /// Check-in `id`'s visitor, or (`only`) the check-in alone.
        case checkIn(Int64, only: Bool)
    }

    /// What the command does once it has shown what it would erase.
    enum Mode: Equatable {
        /// Ask on the terminal.
        case ask
        /// Erase without asking (`--yes`).
        case confirmed
        /// Erase nothing (`--dry-run`).
        case dryRun
    }

    let ledgerOptions: LedgerCommandOptions
    let target: Target
    let mode: Mode

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        switch (arguments["device"], arguments["phone"], arguments["checkin"]) {
        case (let device?, nil, nil):
            guard let id = DeviceID(device) else {
                throw .usage("--device must be a device id as 'checkins' shows it (1-64 of 0-9 a-z A-Z - _)")
            }
            target = .device(prefix: id)
        case (nil, let phone?, nil):
            guard let digits = Visitor.normalizedPhone(phone) else {
                throw .usage("--phone must be a phone number of 7-15 digits (010-1234-5678, +82 10 1234 5678)")
            }
            target = .subject(.phone(digits))
        case (nil, nil, _?):
            target = .checkIn(Int64(try arguments.integer("checkin", in: 1...Int.max)!), only: arguments.has("only"))
        default:
            throw .usage("give exactly one of --checkin ID, --device ID and --phone NUMBER")
        }
        if arguments.has("only"), arguments["checkin"] == nil { throw .usage("--only goes with --checkin ID: that check-in alone") }
        switch (arguments.has("dry-run"), arguments.has("yes")) {
        case (true, true): throw .usage("--dry-run erases nothing and --yes erases without asking: give one of them")
        case (true, false): mode = .dryRun
        case (false, true): mode = .confirmed
        case (false, false): mode = .ask
        }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let ledger = try await ledgerOptions.openLedger().ledger
        let (subject, scope) = try await chosen(ledger)
        let erasure = Erasure(trail: AuditTrail.shell(ledger, context), ledger: ledger)
        let described = scope.described
        if mode == .confirmed {
            // One action: what goes is shown once it is gone, the erasure and its entry one
            // transaction. Counted first, so that nothing matching erases (and audits) nothing.
            let checkIns = try await ledgerCall { () async throws(LedgerError) in try await ledger.checkIns(of: subject) }
            let preview = ErasurePreview(scope: scope, checkIns: checkIns, zone: SystemZone())
            guard preview.count > 0 else {
                throw CommandError(.dataError, "\(preview.nothing) (never recorded, purged or erased already): nothing erased")
            }
            let erased = try await ledgerCall { () async throws(LedgerError) in try await erasure.erase(subject, described: described) }
            try context.output(preview.text + preview.erased(erased) + "\n")
            return .success
        }
        // What would go is shown to the operator: audited as a preview before it is shown
        // (on a full disk nothing is shown, exit 74). Erasing then is a second action.
        let checkIns = try await ledgerCall { () async throws(LedgerError) in try await erasure.preview(subject, described: described) }
        let preview = ErasurePreview(scope: scope, checkIns: checkIns, zone: SystemZone())
        guard preview.count > 0 else {
            throw CommandError(.dataError, "\(preview.nothing) (never recorded, purged or erased already): nothing erased")
        }
        try context.output(preview.text)
        if mode == .dryRun {
            try context.output("nothing erased (--dry-run)\n")
            return .success
        }
        guard context.standardInputIsTerminal else {
            throw CommandError(.usage, "nothing erased: answer on a terminal, or add --yes to erase without asking")
        }
        let answer = context.ask(preview.question)?.trimmed().lowercased()
        guard answer == "y" || answer == "yes" else {
            try context.output("nothing erased\n")
            return .failure
        }
        let erased = try await ledgerCall { () async throws(LedgerError) in try await erasure.erase(subject, described: described) }
        try context.output(preview.erased(erased) + "\n")
        return .success
    }

    /// What to erase and how to name it: a subject as given, or found from check-in `id`.
    private func chosen(_ ledger: any Ledger) async throws(CommandError) -> (ErasureSubject, ErasurePreview.Scope) {
        switch target {
        case .device(prefix: let prefix):
            let device = try await DeviceLookup.device(prefixed: prefix, in: ledger)
            return (.device(device), .device(device, ofCheckIn: nil))
        case .subject(.device(let device)):
            return (.device(device), .device(device, ofCheckIn: nil))
        case .subject(.phone(let phone)):
            return (.phone(phone), .phone(phone, ofCheckIn: nil))
        case .subject(.checkIn(let id)), .checkIn(let id, only: true):
            _ = try await Self.find(id, in: ledger)
            return (.checkIn(id), .checkIn(id, namesNoVisitor: false))
        case .checkIn(let id, only: false):
            let checkIn = try await Self.find(id, in: ledger)
            if let device = checkIn.device { return (.device(device), .device(device, ofCheckIn: id)) }
            if let phone = checkIn.entry.visitor?.phone { return (.phone(phone), .phone(phone, ofCheckIn: id)) }
            return (.checkIn(id), .checkIn(id, namesNoVisitor: true))
        }
    }

    /// Check-in `id`, or exit 65: the number names nothing (never recorded, purged, erased, or
    /// another ledger's).
    private static func find(_ id: Int64, in ledger: any VisitLedger) async throws(CommandError) -> CheckIn {
        guard let checkIn = try await ledgerCall({ () async throws(LedgerError) in try await ledger.find(id: id) }) else {
            throw CommandError(.dataError, "no such check-in: \(id) (never recorded, purged or erased already, or of another database)")
        }
        return checkIn
    }
}
