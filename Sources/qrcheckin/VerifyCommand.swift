import CheckInData
import CheckInDomain

/// `qrcheckin verify`: what a check-in server does with a scanned URL or a typed safe number,
/// offline, with the shared secret.
struct VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        summary: "Check a scanned check-in URL, a token or a typed safe number.",
        usage: "verify [--secret-file FILE] [--venue VENUE] [--period SECONDS] [--skew N] [--at UNIX] (URL | TOKEN | --safe-number NUMBER)",
        options: CheckInOptions.specs + [
            OptionSpec("skew", value: "N", help: "Windows accepted before and after the current one, 0-60 (default 1)."),
            OptionSpec("safe-number", value: "NUMBER", help: "Check a safe number such as 12가34나 for --venue instead of a URL."),
        ],
        positionals: 0...1,
        discussion: """
            A URL is <base-url>/<VENUE>/<TOKEN>; its VENUE must equal --venue when that is given
            (the base URL itself is not signed). A bare TOKEN and a safe number are checked for
            --venue (default DEMO). --period must be the one the codes were issued with: it is
            signed, so another period makes every code bad-mac.

            Prints 'valid: N seconds left (...)', N counting to the end of the last window the
            skew accepts, or 'invalid: REASON (...)' with REASON one of: malformed,
            unknown-version, wrong-venue, bad-mac, expired, not-yet-valid.

            \(CheckInOptions.secretHelp)

            EXIT STATUS: 0 valid; 1 invalid (the reason is printed); 64 bad command line; 65 the
            secret file's content is bad (empty, too short, not hex); 66 the secret file is
            missing, unreadable or not a regular file; 77 the secret file is accessible by group
            or others.
            """
    )

    /// What is being checked.
    enum Subject: Sendable {
        case urlOrToken(String)
        case safeNumber(String)
    }

    let options: CheckInOptions
    let skew: Int
    let subject: Subject

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        options = try CheckInOptions(arguments)
        skew = try arguments.integer("skew", in: 0...60) ?? CheckInCodeVerifier.defaultSkew
        switch (arguments.positionals.first, arguments["safe-number"]) {
        case (let text?, nil): subject = .urlOrToken(text)
        case (nil, let number?): subject = .safeNumber(number)
        case (nil, nil): throw .usage("give a URL or TOKEN to verify, or --safe-number NUMBER")
        case (_?, _?): throw .usage("give either a URL or TOKEN, or --safe-number, not both")
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let verifier = CheckInCodeVerifier(secret: try options.loadSecret(context), period: options.period,
                                           skew: skew, authenticator: SodiumAuthenticator())
        let result =
            switch subject {
            case .urlOrToken(let text):
                verifier.verify(text, expectedVenue: options.venue, at: options.unixTime)
            case .safeNumber(let number):
                verifier.verify(safeNumber: number, venue: options.venue ?? .demo, at: options.unixTime)
            }
        switch result {
        case .valid(let accepted):
            let sequence = accepted.sequence.map { ", sequence \($0)" } ?? ""
            context.print("valid: \(accepted.secondsLeft) seconds left (venue \(accepted.venue), window \(accepted.window)\(sequence))\n")
            return .success
        case .rejected(let reason):
            context.print("invalid: \(reason.rawValue) (\(reason.explanation))\n")
            return .failure
        }
    }
}
