import SharedCLI
import SharedDomain
import SharedJSON
import SharedSystem

/// `qrcheckin code`: the code of a venue at a moment, like `oathtool` for TOTP. For operators,
/// server developers and tests.
struct CodeCommand: Command {
    static let spec = CommandSpec(
        name: "code",
        summary: "Print the signed check-in code (URL, token, safe number) for a moment.",
        options: CheckInOptions.specs(secretFiles: false) + [
            OptionSpec("seq", value: "N", help: "Forced-refresh sequence number within the window, 0-4294967295 (default 0)."),
            OptionSpec("base-url", value: "URL", help: "URL prefix (default \(CheckInCodeIssuer.defaultBaseURL))."),
            OptionSpec("json", help: "Print one JSON object instead of 'name: value' lines."),
        ],
        discussion: """
            Prints the code a kiosk of VENUE shows at the moment --at (window = floor(UNIX /
            SECONDS)): the URL the QR code holds, its token, the safe number, and when it was
            issued and expires. The venue is the configured one, else a venue key's own venue,
            else DEMO (as for 'run'). The format is in docs/TOKEN.md.

            --json prints {venue, url, token, safeNumber, window, seq, issuedAt, expiresAt,
            period}, the names current.json uses.

            \(CheckInOptions.secretHelp)

            EXIT STATUS: 0 printed; 64 bad command line; 65 the secret file's content is bad
            (empty, too short, not hex); 66 the secret file is missing or not a regular file;
            74 the output cannot be written; 77 the secret file is accessible by group or
            others, belongs to another user, or cannot be read for permissions; 78 a bad
            setting in the config file or the environment, or a venue key for another venue.
            """
    )

    let options: CheckInOptions
    let sequence: Int
    let json: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        options = try CheckInOptions(arguments, environment: context.environment, usesBaseURL: true)
        sequence = try arguments.integer("seq", in: 0...CheckInCodeIssuer.maximumSequence) ?? 0
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let keys = try options.loadKeys(context)
        let venue = try options.venue(for: keys, fallback: .demo) ?? .demo
        let issuer: VenueCodeIssuer
        do {
            issuer = try VenueCodeIssuer(venue: venue, keys: keys[0].keys, baseURL: options.baseURL,
                                         period: options.period, authenticator: HMACAuthenticator())
        } catch {
            throw CommandError(.config, "\(keys[0].path): \(error.description)")
        }
        let code = issuer.code(at: options.unixTime, sequence: sequence)
        var output = CheckedOutput()
        if json {
            let document: JSONValue = .object([
                ("venue", .string(code.venue.rawValue)), ("url", .string(code.url)), ("token", .string(code.token)),
                ("safeNumber", .string(code.safeNumber)), ("window", .number(code.window)),
                ("seq", .number(Int64(code.sequence))), ("issuedAt", .number(code.issuedAt)),
                ("expiresAt", .number(code.expiresAt)), ("period", .number(Int64(options.period.seconds))),
            ])
            try output.append(document.serialized + "\n")
        } else {
            // The names --json and current.json use, so one vocabulary serves both.
            let fields: [(String, String)] = [
                ("url", code.url), ("token", code.token), ("safeNumber", code.safeNumber),
                ("venue", code.venue.rawValue), ("period", "\(options.period.seconds)"),
                ("window", "\(code.window)"), ("seq", "\(code.sequence)"),
                ("issuedAt", "\(code.issuedAt)"), ("expiresAt", "\(code.expiresAt)"),
                ("expiresIn", "\(code.expiresAt - options.unixTime)"),
            ]
            try output.append(fields.map { "\($0.0): \($0.1)\n" }.joined())
        }
        try output.flush()
        return .success
    }
}
