import SharedCLI
import SharedDomain
import SharedJSON
import SharedSystem

/// `qrcheckin verify`: what a check-in server does with a scanned URL or a typed safe number,
/// offline, with the shared secret — once, or as a co-process over standard input (`--stdin`).
struct VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        summary: "Check a scanned check-in URL, a token or a typed safe number (or a stream of them).",
        operands: [.oneOf([.words("URL"), .words("TOKEN"), .option("safe-number"), .option("stdin")])],
        options: CheckInOptions.specs(secretFiles: true) + [
            OptionSpec("skew", value: "N", help: "Windows accepted before and after the current one, 0-60 (default 1)."),
            OptionSpec("safe-number", value: "NUMBER", help: "Check a safe number such as 12가34나 instead of a URL."),
            OptionSpec("json", help: "Print one JSON object: valid, reason, venue, window, seq, ..."),
            OptionSpec("stdin", help: "Read one URL, token or safe number per line; write one JSON line each."),
        ],
        positionals: 0...1,
        discussion: """
            A URL is <base-url>/<VENUE>/<TOKEN>; its VENUE must equal the configured venue when
            there is one (the base URL itself is not signed). A bare TOKEN and a safe number
            are checked for the configured venue (--venue, the config file or QRCHECKIN_VENUE,
            else a venue key's own venue); with none, pass --venue. --period must be the one
            the codes were issued with: it is signed, so another period makes every code bad-mac.

            Several --secret-file options are tried in order and the one that matched is
            reported: during a secret rotation, give the new secret and the old one.

            Prints 'valid: N seconds left, accepted for M (...)', N counting from --at (or
            now) to the end of the code's window, as current.json's secondsLeft and code's
            expiresIn do, M to the end of the last window the skew accepts. Or it prints
            'invalid: REASON (...)' with REASON one of: malformed,
            unknown-version, no-venue, wrong-venue, bad-mac, expired, not-yet-valid.
            --json prints {valid, reason, venue, window, seq, issuedAt, expiresAt, expiresIn
            (N), secondsLeft (M), secretFile} instead (null where unknown; reason null when
            valid).

            --stdin reads lines until end of input and writes one such JSON object per line,
            in order, each written before more input is awaited, so a check-in server can keep
            one co-process open. A bad line gets valid false and a reason; it never ends the
            stream. Exit 0 at end of input.

            \(CheckInOptions.secretHelp)

            EXIT STATUS: 0 valid (or --stdin finished); 1 invalid (the reason is printed); 64
            bad command line, or a bare token with no venue; 65 the secret file's content is
            bad; 66 the secret file is missing or not a regular file; 74 the output cannot be
            written or the input read; 77 the secret file is accessible by group or others,
            belongs to another user, or cannot be read for permissions; 78 a bad setting in the
            config file or the environment.
            """
    )

    /// What is being checked.
    enum Subject {
        case text(String)
        case safeNumber(String)
        case stream
    }

    let options: CheckInOptions
    let skew: Int
    let subject: Subject
    let json: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        options = try CheckInOptions(arguments, environment: context.environment, usesBaseURL: false)
        skew = try arguments.integer("skew", in: 0...CheckInTime.maximumSkew) ?? CheckInCodeVerifier.defaultSkew
        json = arguments.has("json")
        switch (arguments.positionals.first, arguments["safe-number"], arguments.has("stdin")) {
        case (let text?, nil, false): subject = .text(text)
        case (nil, let number?, false): subject = .safeNumber(number)
        case (nil, nil, true): subject = .stream
        case (nil, nil, false): throw .usage("give a URL or TOKEN to verify, --safe-number NUMBER, or --stdin")
        default: throw .usage("give one of: a URL or TOKEN, --safe-number NUMBER, --stdin")
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let keys = try options.loadKeys(context)
        let venue = try options.venue(for: keys, fallback: nil)
        let verifier = CheckInCodeVerifier(keys: keys.map(\.keys), period: options.period, skew: skew,
                                           authenticator: HMACAuthenticator())
        let writer = VerificationWriter(secretFiles: keys.map(\.path))
        var output = CheckedOutput()
        let report: VerificationReport
        switch subject {
        case .stream:
            return try VerificationStream(session: verifier.session(), venue: venue, fixedTime: options.unixTimeIfGiven,
                                          writer: writer).run(output: &output)
        case .text(let text):
            report = verifier.check(text, expectedVenue: venue, at: options.unixTime)
        case .safeNumber(let number):
            guard let venue else { throw .usage("a safe number needs a venue: pass --venue VENUE (or set venue in the config)") }
            report = verifier.session().checkSafeNumber(number, venue: venue, at: options.unixTime)
        }
        if report.reason == .noVenue {
            throw .usage("a bare token needs a venue: pass --venue VENUE (or set venue in the config), or give the whole URL")
        }
        if json {
            var line = [UInt8]()
            writer.append(report, to: &line)
            try output.append(bytes: line)
        } else {
            try output.append(writer.text(report, showFile: keys.count > 1) + "\n")
        }
        try output.flush()
        return report.isValid ? .success : .failure
    }
}

extension CheckInOptions {
    /// `--at` when given; nil means "the time each line is read" for `--stdin`.
    var unixTimeIfGiven: Int64? { hasExplicitTime ? unixTime : nil }
}
