import ServerDomain
import SharedCLI
import SharedSystem

/// `qrcheckin-server erase`: deletes every check-in of one visitor, on request (by the device
/// id the export shows, or by a collected phone number), and says how many went.
struct EraseCommand: Command {
    static let spec = CommandSpec(
        name: "erase",
        summary: "Erase one visitor's check-ins: by device id or by phone number.",
        operands: [.oneOf([.option("device"), .option("phone"), .option("checkin")])],
        options: LedgerCommandOptions.options() + [
            OptionSpec("device", value: "ID", help: "Every check-in of this device (the device column of 'checkins')."),
            OptionSpec("phone", value: "NUMBER", help: "Every check-in that recorded this phone number (any spelling: 010-1234-5678)."),
            OptionSpec("checkin", value: "ID", help: "Every check-in of the device (else the phone) of check-in ID (the receipt's number)."),
        ],
        discussion: """
            Deletes every check-in of one visitor across all venues and days, with the keys
            that would make the device's next scan a duplicate, and prints how many went.
            A visitor knows no device id, but their receipt's address ends in its check-in
            number (BASE-PATH/VENUE/receipt/ID): --checkin ID erases every check-in of that
            receipt's device, or, for one without a device, of its phone number. A venue
            that collects phone numbers can erase by the number. Deletion is real, as with
            purge (secure_delete, the write-ahead log truncated). Kept daily counts are
            numbers only and stay. Neither the id nor the number is printed.

            EXIT STATUS: 0 erased (also 0 check-ins: nothing held); 64 bad command line (not
            exactly one of --device, --phone and --checkin, or a malformed one); 65 the
            database is not a ledger, or check-in ID has neither a device nor a phone; 66 the
            database does not exist, or there is no check-in ID; 75 the database stayed
            locked; 77 permission denied; 78 a bad setting.
            """
    )

    /// Whose check-ins: a subject, or the one of a check-in found at run time.
    enum Target {
        case subject(ErasureSubject)
        case checkIn(Int64)
    }

    let ledgerOptions: LedgerCommandOptions
    let target: Target

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        switch (arguments["device"], arguments["phone"], arguments["checkin"]) {
        case (let device?, nil, nil):
            guard let id = DeviceID(device) else {
                throw .usage("--device must be a device id as 'checkins' shows it (1-64 of 0-9 a-z A-Z - _)")
            }
            target = .subject(.device(id))
        case (nil, let phone?, nil):
            guard let digits = Visitor.normalizedPhone(phone) else {
                throw .usage("--phone must be a phone number of 7-15 digits (010-1234-5678, +82 10 1234 5678)")
            }
            target = .subject(.phone(digits))
        case (nil, nil, _?):
            target = .checkIn(Int64(try arguments.integer("checkin", in: 1...Int.max)!))
        default:
            throw .usage("give exactly one of --device ID, --phone NUMBER and --checkin ID")
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let ledger = try ledgerOptions.openLedger()
        let subject: ErasureSubject
        switch target {
        case .subject(let given):
            subject = given
        case .checkIn(let id):
            guard let checkIn = try ledgerCall({ () throws(LedgerError) in try ledger.find(id: id) }) else {
                throw CommandError(.noInput, "there is no check-in \(id) (never recorded, purged or erased already)")
            }
            if let device = checkIn.device {
                subject = .device(device)
            } else if let phone = checkIn.entry.visitor?.phone {
                subject = .phone(phone)
            } else {
                throw CommandError(.dataError, "check-in \(id) has neither a device nor a phone number: nothing links it to a visitor")
            }
        }
        let erased = try ledgerCall { () throws(LedgerError) in try ledger.erase(subject) }
        let whose = switch subject {
        case .device: "of that device"
        case .phone: "with that phone number"
        }
        try context.output("erased \(erased) check-in\(erased == 1 ? "" : "s") \(whose)\n")
        return .success
    }
}
