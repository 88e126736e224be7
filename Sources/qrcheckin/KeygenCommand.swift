import CheckInData
import CheckInDomain

/// `qrcheckin keygen`: a new master secret from the OS CSPRNG, written where it will be used.
struct KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        summary: "Create a new random secret file (32 bytes, mode 0600).",
        usage: "keygen [-o FILE] [--force]",
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Where to write (default: the state directory's secret)."),
            OptionSpec("force", help: "Replace an existing file (atomically)."),
        ],
        discussion: """
            Writes 32 bytes from the operating system's CSPRNG as 64 hex digits and a newline,
            mode 0600. An existing file is never replaced without --force, and the file appears
            complete or not at all. Without -o it goes to the state directory (created with
            mode 0700), where 'qrcheckin run', 'code' and 'verify' look for it. The secret is
            never printed: copy the file to your check-in server, or load it in a systemd unit
            with LoadCredential=secret:FILE.

            EXIT STATUS: 0 written; 64 bad command line; 73 the file exists (use --force) or
            cannot be created.
            """
    )

    let output: String?
    let force: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        output = arguments["output"]
        if output == "-" || output == "" {
            throw .usage("-o needs a file name: the secret is never written to standard output")
        }
        force = arguments.has("force")
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let locations = DefaultLocations(environment: context.environment)
        let path = output ?? locations.secretFile
        do {
            if output == nil { try SecretFile.makeDirectory(locations.stateDirectory) }
            _ = try SecretFile.generate(at: path, overwrite: force)
        } catch {
            throw CommandError(error)
        }
        context.print("wrote a new \(MasterSecret.generatedLength)-byte secret to \(path) (mode 0600)\n")
        return .success
    }
}
