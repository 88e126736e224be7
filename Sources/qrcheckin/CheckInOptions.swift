import CheckInData
import CheckInDomain
import Glibc

/// The options `code` and `verify` share: the secret, the venue, the period and the moment.
/// Parsed once here so both commands accept and report them the same way.
struct CheckInOptions: Sendable {
    /// `--secret-file`, `--venue`, `--period`, `--at`, in `--help` order.
    static let specs: [OptionSpec] = [
        OptionSpec("secret-file", value: "FILE", help: "Secret file (default: $CREDENTIALS_DIRECTORY/secret, else the state directory's secret)."),
        OptionSpec("venue", value: "VENUE", help: "Venue id: 1-16 of 0-9 A-Z - . (default DEMO)."),
        OptionSpec("period", value: "SECONDS", help: "Rotation period, 1-3600 seconds (default 15)."),
        OptionSpec("at", value: "UNIX", help: "The moment, in Unix seconds (default: now)."),
    ]

    /// The lookup order and exit statuses, for each command's `--help`.
    static let secretHelp = """
        The secret is read from --secret-file, else $CREDENTIALS_DIRECTORY/secret (systemd
        LoadCredential=), else the state directory's secret file. It must be a regular file
        that only its owner can access (chmod 600) holding at least 16 bytes as hex text, as
        'qrcheckin keygen' writes it. The secret is never printed.
        """

    let secretFile: String?
    let venue: VenueID?
    let period: RotationPeriod
    let unixTime: Int64

    init(_ arguments: ParsedArguments) throws(CommandError) {
        secretFile = arguments["secret-file"]
        if let text = arguments["venue"] {
            do {
                venue = try VenueID(text)
            } catch {
                throw .usage("--venue: \(error.description)")
            }
        } else {
            venue = nil
        }
        if let seconds = try arguments.integer("period", in: RotationPeriod.allowedSeconds) {
            period = try! RotationPeriod(seconds: seconds)
        } else {
            period = .standard
        }
        if let text = arguments["at"] {
            // ±10^15 s (30 million years) keeps every window's start and end inside Int64.
            guard let moment = Int64(text), abs(moment) <= 1_000_000_000_000_000 else {
                throw .usage("--at must be Unix seconds, a whole number within ±10^15, got '\(text)'")
            }
            unixTime = moment
        } else {
            unixTime = Int64(time(nil))
        }
    }

    /// Loads the secret by the documented lookup order; never creates one.
    func loadSecret(_ context: CommandContext) throws(CommandError) -> MasterSecret {
        do {
            return try SecretFile.resolve(
                explicitPath: secretFile, environment: context.environment,
                locations: DefaultLocations(environment: context.environment), createIfMissing: false
            ).secret
        } catch {
            throw CommandError(error)
        }
    }
}
