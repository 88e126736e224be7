import ServerDomain
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import SharedText

/// `qrcheckin-server user`: the operator console's accounts (add, list, passwd, remove,
/// disable, enable), kept in the ledger's database; every change is in the audit log.
struct UserCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "user",
        summary: "Manage the operator console's accounts: add, list, passwd, remove, disable, enable.",
        operands: [.words("(add NAME --role ROLE | list | passwd NAME | remove NAME | disable NAME | enable NAME)")],
        options: LedgerCommandOptions.options() + [
            OptionSpec("role", value: "ROLE", help: "steward, supervisor or admin (add; with passwd, changes the role too)."),
            OptionSpec("password-file", value: "FILE", help: "Read the password from FILE's first line (else standard input, or a prompt)."),
        ],
        positionals: 1...2,
        discussion: """
            The console (serve's admin-listen) signs in with these accounts. A steward sees the
            dashboard and who is inside and records staff check-ins; a supervisor also searches
            and exports the visitor log and erases from it; an admin also manages accounts and
            reads the audit log. Names are 1-64 letters, digits and . _ - @. Passwords (8
            characters or more) are read from --password-file, else from standard input when it
            is not a terminal, else asked twice on the terminal without echo; never from the
            command line. They are kept as Argon2id hashes (libsodium). passwd, a new role,
            disable and remove end the account's console sessions at once. Every change is
            written to the audit log with your user name (as sudo tells). add creates the
            database if it does not exist yet, as serve would.

            EXIT STATUS: 0 done; 1 (add) the account exists, (others) no such account; 64 bad
            command line; 65 a bad password (too short, the two differ) or a database that is
            not a ledger; 66 the database or the password file does not exist; 73 the database
            cannot be created; 77 permission denied; 78 a bad setting, or a ledger of a newer
            version.
            """
    )

    enum Action: String, CaseIterable {
        case add, list, passwd, remove, disable, enable
    }

    let ledgerOptions: LedgerCommandOptions
    let action: Action
    let name: String?
    let role: ConsoleRole?
    let passwordFile: String?
    let operatorName: String

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        guard let action = Action(rawValue: arguments.positionals[0]) else {
            throw .usage("unknown action \(Quoted(arguments.positionals[0])): add, list, passwd, remove, disable or enable")
        }
        self.action = action
        name = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        if action == .list {
            guard name == nil else { throw .usage("list takes no NAME") }
        } else {
            guard let name else { throw .usage("\(action.rawValue) needs the account's NAME") }
            guard ConsoleAccount.isValidName(name) else { throw .usage("NAME must be 1-64 letters, digits, '.', '_', '-' or '@'; got \(Quoted(name))") }
        }
        role = try arguments.choice("role", as: ConsoleRole.self)
        if action == .add && role == nil { throw .usage("add needs --role steward, supervisor or admin") }
        if role != nil && action != .add && action != .passwd { throw .usage("--role goes with add or passwd") }
        passwordFile = arguments["password-file"]
        if passwordFile != nil && action != .add && action != .passwd { throw .usage("--password-file goes with add or passwd") }
        operatorName = OperatorIdentity.current(environment: context.environment)
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let opened = try await ledgerOptions.openLedger(create: action == .add, clock: clock)
        let ledger = opened.ledger
        let accounts: any AccountLedger = ledger
        if action == .list { return try await list(accounts, context) }
        let name = name!
        let hash: String?
        if action == .add || action == .passwd {
            // The account must exist before a prompt asks for its password.
            if action == .passwd, try await ledgerCall({ () async throws(LedgerError) in try await accounts.account(named: name) }) == nil {
                context.error("no account \(name)")
                return .failure
            }
            let password = try PasswordInput.read(file: passwordFile, context: context)
            // Argon2id: a tenth of a second of CPU and 64 MiB, on the ledger's blocking pool.
            guard let made = try? await opened.pool.run({ () throws(Never) in PasswordHash.make(password) }) ?? nil else {
                throw CommandError(.unavailable, "cannot hash the password: out of memory")
            }
            hash = made
        } else {
            hash = nil
        }
        // Each change and its audit entry are one transaction (`AccountChanges`).
        let changes = AccountChanges(trail: AuditTrail(ledger: ledger, actor: .shell(operatorName), clock: clock))
        let done: Bool
        switch action {
        case .add:
            done = try await ledgerCall { () async throws(LedgerError) in
                try await changes.add(ConsoleAccount(name: name, role: role!, passwordHash: hash!, created: clock.now()))
            }
        case .passwd:
            done = try await ledgerCall { () async throws(LedgerError) in try await changes.change(named: name, AccountChange(role: role, passwordHash: hash)) }
        case .disable, .enable:
            done = try await ledgerCall { () async throws(LedgerError) in try await changes.change(named: name, AccountChange(disabled: action == .disable)) }
        case .remove:
            done = try await ledgerCall { () async throws(LedgerError) in try await changes.remove(named: name) }
        case .list:
            return .success
        }
        guard done else {
            context.error(action == .add ? "an account \(name) exists already; nothing changed" : "no account \(name)")
            return .failure
        }
        let said: String = switch action {
        case .add: "added \(name) (\(role!.rawValue))"
        case .passwd: "changed the password of \(name)" + (role.map { ", now \($0.rawValue)" } ?? "") + "; its sessions ended"
        case .disable: "disabled \(name); its sessions ended"
        case .enable: "enabled \(name)"
        case .remove: "removed \(name); its sessions ended"
        case .list: ""
        }
        try context.output(said + "\n")
        return .success
    }

    private func list(_ accounts: any AccountLedger, _ context: CommandContext) async throws(CommandError) -> ExitCode {
        let all = try await ledgerCall { () async throws(LedgerError) in try await accounts.accounts() }
        var text = "name\trole\tstate\tcreated\n"
        for account in all {
            let created = UTCTime.iso8601(account.created.seconds)
            text += "\(account.name)\t\(account.role.rawValue)\t\(account.disabled ? "disabled" : "active")\t\(created)\n"
        }
        try context.output(text)
        return .success
    }
}
