import CheckInData
import CheckInDomain

/// `qrcheckin code`: the code of a venue at a moment, like `oathtool` for TOTP. For operators,
/// server developers and tests.
struct CodeCommand: Command {
    static let spec = CommandSpec(
        name: "code",
        summary: "Print the signed check-in code (URL, token, safe number) for a moment.",
        usage: "code [--secret-file FILE] [--venue VENUE] [--period SECONDS] [--at UNIX] [--seq N] [--base-url URL] [--json]",
        options: CheckInOptions.specs + [
            OptionSpec("seq", value: "N", help: "Forced-refresh sequence number within the window (default 0)."),
            OptionSpec("base-url", value: "URL", help: "URL prefix (default \(CheckInCodeIssuer.defaultBaseURL))."),
            OptionSpec("json", help: "Print one JSON object instead of 'name: value' lines."),
        ],
        discussion: """
            Prints the code a kiosk of VENUE shows at the moment --at (window = floor(UNIX /
            SECONDS)): the URL the QR code holds, its token, the safe number, and when it was
            issued and expires. The format is in docs/TOKEN.md.

            \(CheckInOptions.secretHelp)

            EXIT STATUS: 0 printed; 64 bad command line; 65 the secret file's content is bad
            (empty, too short, not hex); 66 the secret file is missing, unreadable or not a
            regular file; 77 the secret file is accessible by group or others.
            """
    )

    let options: CheckInOptions
    let sequence: Int
    let baseURL: String
    let json: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        options = try CheckInOptions(arguments)
        sequence = try arguments.integer("seq", in: 0...CheckInCodeIssuer.maximumSequence) ?? 0
        baseURL = arguments["base-url"] ?? CheckInCodeIssuer.defaultBaseURL
        do {
            try CheckInCodeIssuer.validateBaseURL(baseURL)
        } catch {
            throw .usage("--base-url: \(error.description)")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let issuer = CheckInCodeIssuer(secret: try options.loadSecret(context), baseURL: baseURL,
                                       period: options.period, authenticator: SodiumAuthenticator())
        let code = issuer.code(for: options.venue ?? .demo, at: options.unixTime, sequence: sequence)
        let fields: [(String, String, quoted: Bool)] = [
            ("url", code.url, true), ("token", code.token, true), ("safe-number", code.safeNumber, true),
            ("venue", code.venue.rawValue, true), ("period", "\(options.period.seconds)", false),
            ("window", "\(code.window)", false), ("sequence", "\(code.sequence)", false),
            ("issued-at", "\(code.issuedAt)", false), ("expires-at", "\(code.expiresAt)", false),
            ("expires-in", "\(code.expiresAt - options.unixTime)", false),
        ]
        if json {
            // Every value is digits, A-Z, ' $%*+-./:' or Hangul: nothing needs JSON escaping.
            let members = fields.map { name, value, quoted in
                "\"\(name)\": " + (quoted ? "\"\(value)\"" : value)
            }
            context.print("{" + members.joined(separator: ", ") + "}\n")
        } else {
            context.print(fields.map { "\($0.0): \($0.1)\n" }.joined())
        }
        return .success
    }
}
