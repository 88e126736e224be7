import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin keygen`: a new master secret from the OS CSPRNG, or one venue's key derived from
/// the master secret, written where it will be used.
struct KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        summary: "Create a new random secret file (32 bytes, mode 0600), or a venue's key or report key.",
        operands: [.together([.option("venue"), .option("from")])],
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Where to write (default: the state directory's secret)."),
            OptionSpec("force", help: "Replace an existing file (atomically)."),
            OptionSpec("venue", value: "VENUE", help: "Write VENUE's key instead of a new secret (needs --from and -o)."),
            OptionSpec("report", help: "Write the venue's report key instead (for 'qrcheckin report'; needs -o)."),
            OptionSpec("from", value: "FILE", help: "The master secret (or, with --report, the venue key) to derive from."),
        ],
        discussion: """
            Writes 32 bytes from the operating system's CSPRNG as 64 hex digits and a newline,
            mode 0600. An existing file is never replaced without --force, and the file appears
            complete or not at all; a path that is not a regular file (a device, FIFO, socket
            or directory) is refused even with --force. Without -o it goes to the state directory (created with
            mode 0700), where 'qrcheckin run', 'code' and 'verify' look for it. The secret is
            never printed: copy the file to your check-in server, or load it in a systemd unit
            with LoadCredential=secret:FILE.

            With --venue and --from it writes that venue's key instead: the HKDF of
            docs/TOKEN.md, as the line 'QRCHECKIN-VENUE-KEY-1 VENUE HEX'. Give it to the kiosk
            of that venue in place of the master secret: 'run', 'code' and 'verify' accept it,
            serve only that venue, and a stolen kiosk exposes no other venue. Codes it signs
            are the ones the master secret signs, so the check-in server keeps the master.

            With --report and --from it writes the venue's report key instead, as the line
            'QRCHECKIN-REPORT-KEY-1 VENUE HEX' (docs/TOKEN.md, Kiosk reports): what 'qrcheckin
            report' signs its reports with. It can neither issue nor verify codes. --from may be
            the master secret or the venue's key; the venue is --venue, else the configured
            one ($QRCHECKIN_CONFIG's venue, $QRCHECKIN_VENUE, else DEMO). On a packaged host
            root may leave out --from: the installed service's key and (without --venue) its
            config are used, so 'sudo qrcheckin keygen --report --force -o
            /etc/qrcheckin/report-key' makes the key of the venue configured now.

            EXIT STATUS: 0 written; 64 bad command line; 65 --from is not a master secret
            (with --report: is a report key); 66 --from is missing; 73 the file exists (use
            --force) or cannot be created; 77 --from is accessible by group or others, or
            another user's; 78 --report: --from is another venue's key, or a bad setting in
            the config file or the environment.
            """
    )

    let output: String?
    let force: Bool
    let venue: VenueID?
    let master: String?
    /// `--report`: the venue whose report key to write.
    let reportVenue: VenueID?
    /// `--report`: the key file it is derived from (`--from`, else the installed service's).
    let reportSource: String?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        output = arguments["output"]
        if output == "-" || output == "" {
            throw .usage("-o needs a file name: secrets and keys are never written to standard output")
        }
        force = arguments.has("force")
        master = arguments["from"]
        if let text = arguments["venue"] {
            do throws(CheckInCodeError) {
                venue = try VenueID(text)
            } catch {
                throw .usage("--venue: \(error.description)")
            }
        } else {
            venue = nil
        }
        if arguments.has("report") {
            guard output != nil else { throw .usage("--report needs -o FILE: a report key is written for a kiosk's reporter") }
            // On a packaged host, root's `keygen --report` with nothing named uses what the
            // installed daemon uses, as `code` and `verify` do: its config's venue (unless
            // --venue names one) and its key file, so the key fits the venue configured now.
            let service = InstalledService.system
            let installed = master == nil ? service.usableFiles(for: venue) : nil
            let configured: VenueID
            if let venue {
                configured = venue
            } else {
                configured = try SettingLayers(flags: arguments, environment: context.environment,
                                               installed: installed?.configFiles ?? []).value(DaemonSetting.venue)
            }
            reportVenue = configured
            guard let source = master ?? (venue == nil ? installed?.secretFile : service.usableFiles(for: configured)?.secretFile) else {
                throw .usage("--report needs --from SECRET_FILE (the master secret or the venue's key): the report key is derived from it")
            }
            reportSource = source
            return
        }
        reportVenue = nil
        reportSource = nil
        switch (venue, master, output) {
        case (nil, nil, _), (_?, _?, _?): break
        case (_?, nil, _): throw .usage("--venue needs --from MASTER_SECRET_FILE: the venue key is derived from it")
        case (nil, _?, _): throw .usage("--from needs --venue VENUE: it names the venue whose key to write")
        case (_?, _?, nil): throw .usage("--venue needs -o FILE: a venue key is written for a kiosk, not to the state directory")
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        if let reportVenue, let reportSource, let output {
            do {
                let authenticator = HMACAuthenticator()
                let key = try SecretFile.loadReportKey(from: reportSource, venue: reportVenue, authenticator: authenticator)
                try SecretFile.create(key, at: output, overwrite: force)
            } catch {
                throw CommandError(error)
            }
            try Self.say("wrote the report key of \(reportVenue) to \(output) (mode 0600); it signs reports of \(reportVenue) only, and no code\n")
            return .success
        }
        if let venue, let master, let output {
            do {
                let secret = try SecretFile.load(from: master)
                try SecretFile.create(VenueSigningKey(deriving: secret, for: venue, authenticator: HMACAuthenticator()),
                                      at: output, overwrite: force)
            } catch {
                throw CommandError(error)
            }
            try Self.say("wrote the venue key of \(venue) to \(output) (mode 0600); it signs for \(venue) only\n")
            return .success
        }
        let locations = DefaultLocations(environment: context.environment)
        let path = output ?? locations.secretFile
        do {
            if output == nil { try SecretFile.makeDirectory(locations.stateDirectory) }
            _ = try SecretFile.generate(at: path, overwrite: force)
        } catch {
            throw CommandError(error)
        }
        try Self.say("wrote a new \(MasterSecret.generatedLength)-byte secret to \(path) (mode 0600)\n")
        return .success
    }

    private static func say(_ text: String) throws(CommandError) {
        var output = CheckedOutput()
        try output.append(text)
        try output.flush()
    }
}
