import ServerDomain
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import SharedText

/// `qrcheckin-server token`: the API's bearer tokens (add, list, remove), kept as hashes in the
/// ledger's database; every change is in the audit log.
struct TokenCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "token",
        summary: "Manage the API's tokens: add, list, remove.",
        operands: [.words("(add NAME --scope SCOPE [--venue VENUE]... | list | remove NAME)")],
        options: LedgerCommandOptions.options() + [
            OptionSpec("scope", value: "SCOPE", help: "read or checkin (add): what the token may do."),
            OptionSpec("venue", value: "VENUE", repeatable: true, help: "With add: the token sees and acts at this venue only (repeatable; default every venue)."),
        ],
        positionals: 1...2,
        discussion: """
            Scripts and other systems call the API (/api/v1/ on the console's listener,
            admin-listen) with one of these tokens: Authorization: Bearer qrc_... . A read token
            lists the visitor log, the venues' counts and who is inside; a checkin token also
            records staff check-ins and check-outs. --venue limits a token to those venues.
            add prints the token once, on standard output: it is kept only as a hash (BLAKE2b,
            libsodium), so it cannot be shown again; a lost token is removed and added anew.
            Every call made with a token is written to the audit log under its name (source
            api); remove refuses its calls at once, on every server of one PostgreSQL. Names
            are 1-64 letters, digits and . _ - @. Every change is written to the audit log with
            your user name (as sudo tells). add creates the database if it does not exist yet,
            as serve would.

            EXIT STATUS: 0 done; 1 (add) a token of that name exists, (remove) no such token;
            64 bad command line; 65 a database that is not a ledger; 66 the database does not
            exist; 69 libsodium cannot be loaded; 73 the database cannot be created; 77
            permission denied; 78 a bad setting, or a ledger of a newer version.
            """
    )

    enum Action: String, CaseIterable {
        case add, list, remove
    }

    let ledgerOptions: LedgerCommandOptions
    let action: Action
    let name: String?
    let scope: APIScope?
    let venues: [VenueID]
    let operatorName: String

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        guard let action = Action(rawValue: arguments.positionals[0]) else {
            throw .usage("unknown action \(Quoted(arguments.positionals[0])): add, list or remove")
        }
        self.action = action
        name = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        if action == .list {
            guard name == nil else { throw .usage("list takes no NAME") }
        } else {
            guard let name else { throw .usage("\(action.rawValue) needs the token's NAME") }
            guard APIToken.isValidName(name) else { throw .usage("NAME must be 1-64 letters, digits, '.', '_', '-' or '@'; got \(Quoted(name))") }
        }
        scope = try arguments.choice("scope", as: APIScope.self)
        if action == .add && scope == nil { throw .usage("add needs --scope read or checkin") }
        if scope != nil && action != .add { throw .usage("--scope goes with add") }
        var venues: [VenueID] = []
        for text in arguments.all("venue") {
            do throws(CheckInCodeError) {
                venues.append(try VenueID(text))
            } catch {
                throw .usage("--venue: \(error)")
            }
        }
        if !venues.isEmpty && action != .add { throw .usage("--venue goes with add") }
        self.venues = venues
        operatorName = OperatorIdentity.current(environment: context.environment)
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let ledger = try await ledgerOptions.openLedger(create: action == .add, clock: clock).ledger
        let changes = TokenChanges(trail: AuditTrail(ledger: ledger, actor: .shell(operatorName), clock: clock))
        switch action {
        case .list:
            let all = try await ledgerCall { () async throws(LedgerError) in try await ledger.tokens() }
            var text = "name\tscope\tvenues\tcreated\tcreated by\n"
            for token in all {
                let venues = token.venues.isEmpty ? "*" : token.venues.map(\.rawValue).joined(separator: ",")
                text += "\(token.name)\t\(token.scope.rawValue)\t\(venues)\t\(UTCTime.iso8601(token.created.seconds))\t\(token.createdBy)\n"
            }
            try context.output(text)
            return .success
        case .remove:
            let name = name!
            guard try await ledgerCall({ () async throws(LedgerError) in try await changes.remove(named: name) }) else {
                context.error("no token \(name)")
                return .failure
            }
            try context.output("removed \(name); calls with it are refused from now on\n")
            return .success
        case .add:
            let name = name!
            try LoadedLibrary.require([.sodium])
            let secret = APITokenSecret(random: SecureRandom.bytes(APITokenSecret.byteCount))
            let token = APIToken(name: name, scope: scope!, venues: venues, secretHash: Self.hash(secret), created: clock.now(), createdBy: operatorName)
            guard try await ledgerCall({ () async throws(LedgerError) in try await changes.add(token) }) else {
                context.error("a token \(name) exists already; nothing changed")
                return .failure
            }
            // The secret alone on standard output (a script takes it with $(…)); what it is on standard error.
            context.error("added \(name) (\(TokenChanges.describe(token))); keep the token now, it is not shown again:")
            try context.output(secret.text + "\n")
            return .success
        }
    }

    /// The hash the ledger keeps of `secret`, as the console's sessions (BLAKE2b, 32 bytes).
    static func hash(_ secret: APITokenSecret) -> String {
        secret.hash { GenericHash.digest($0, length: 32) }
    }
}
