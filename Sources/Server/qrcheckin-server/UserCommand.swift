import ServerDomain
import SharedAsync
import SharedCLI
import SharedDomain
import SharedQR
import SharedSystem
import SharedText

/// `qrcheckin-server user`: the operator console's accounts (add, list, passwd, remove,
/// disable, enable, and a second factor: totp enable|disable), kept in the ledger's database;
/// every change is in the audit log.
struct UserCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "user",
        summary: "Manage the operator console's accounts: add, list, passwd, remove, disable, enable, totp enable|disable.",
        operands: [.words("(add NAME --role ROLE | list | passwd NAME | remove NAME | disable NAME | enable NAME | totp enable NAME | totp disable NAME)")],
        options: LedgerCommandOptions.options() + [
            OptionSpec("role", value: "ROLE", help: "steward, supervisor or admin (add; with passwd, changes the role too)."),
            OptionSpec("password-file", value: "FILE", help: "Read the password from FILE's first line (else standard input, or a prompt)."),
            ServerSetting.secretFileFlag,
            OptionSpec("qr", value: "STYLE", help: "totp enable: draw the QR code as ansi (black on white, any terminal; the default), utf8, utf8i or ascii."),
        ],
        positionals: 1...3,
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

            totp enable NAME gives a password account a second factor: it prints an otpauth://
            URI, the same URI as a QR code for an authenticator app, and ten recovery codes,
            once (a new enable replaces the secret and the codes). The console then asks for a
            code of the app after the password. The secret is sealed under a key derived from
            the server's secret (--secret-file, as serve finds it): run it where serve's secret
            is readable. totp disable NAME takes the second factor away.

            EXIT STATUS: 0 done; 1 (add) the account exists, (others) no such account; 64 bad
            command line; 65 a bad password (too short, the two differ) or a database that is
            not a ledger; 66 the database or the password file does not exist; 73 the database
            cannot be created; 77 permission denied; 78 a bad setting, or a ledger of a newer
            version.
            """
    )

    enum Action: String, CaseIterable {
        case add, list, passwd, remove, disable, enable, totp
    }

    let ledgerOptions: LedgerCommandOptions
    let action: Action
    let name: String?
    let role: ConsoleRole?
    let passwordFile: String?
    let operatorName: String
    /// `totp enable|disable NAME`.
    let totp: UserTOTP?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        guard let action = Action(rawValue: arguments.positionals[0]) else {
            throw .usage("unknown action \(Quoted(arguments.positionals[0])): add, list, passwd, remove, disable, enable or totp")
        }
        self.action = action
        var words = Array(arguments.positionals.dropFirst())
        var totpAction: UserTOTP.Action?
        if action == .totp {
            guard words.count == 2, let chosen = UserTOTP.Action(rawValue: words[0]) else {
                throw .usage("totp takes enable NAME or disable NAME")
            }
            totpAction = chosen
            words.removeFirst()
        } else if words.count > 1 {
            throw .usage("\(action.rawValue) takes one NAME")
        }
        name = words.first
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
        if arguments["qr"] != nil && action != .totp { throw .usage("--qr goes with totp enable") }
        let secretFlags = arguments.all(ServerSetting.secretFile.name)
        if !secretFlags.isEmpty && action != .totp { throw .usage("--secret-file goes with totp enable") }
        operatorName = OperatorIdentity.current(environment: context.environment)
        if let totpAction, let name {
            let style: TerminalStyle
            if let text = arguments["qr"] {
                guard let chosen = TerminalStyle(rawValue: text) else { throw .usage("--qr takes ansi, utf8, utf8i or ascii; got \(Quoted(text))") }
                style = chosen
            } else {
                style = .ansi
            }
            for file in secretFlags where file.isEmpty || file.contains("\0") { throw .usage("--secret-file: must be a path") }
            let layers = ledgerOptions.layers
            totp = UserTOTP(action: totpAction, name: name,
                            secretFiles: secretFlags.isEmpty ? try layers.value(ServerSetting.secretFile) ?? [] : secretFlags,
                            kioskStateDirectory: try layers.value(ServerSetting.stateDirectory)
                                ?? context.environment["QRCHECKIN_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 },
                            organisation: try layers.value(ServerSetting.controller), style: style)
        } else {
            totp = nil
        }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let opened = try await ledgerOptions.openLedger(create: action == .add, clock: clock)
        let ledger = opened.ledger
        let accounts: any AccountLedger = ledger
        if action == .list { return try await list(accounts, context) }
        if let totp { return try await totp.run(ledger, operatorName: operatorName, context: context) }
        let name = name!
        let hash: String?
        if action == .add || action == .passwd {
            // The account must exist before a prompt asks for its password.
            if action == .passwd {
                guard let account = try await ledgerCall({ () async throws(LedgerError) in try await accounts.account(named: name) }) else {
                    context.error("no account \(name)")
                    return .failure
                }
                guard account.signIn == .password else {
                    context.error("\(name) signs in through the organisation's proxy (admin-auth = proxy): it has no password and cannot be given one")
                    return .failure
                }
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
        case .list, .totp:
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
        case .list, .totp: ""
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
