import SharedCLI
import SharedSystem

/// `qrcheckin run`: the daemon, in the foreground, systemd style.
struct RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        summary: "Run the daemon: issue a signed code every period and keep the output files current.",
        options: DaemonConfiguration.options,
        discussion: """
            Runs in the foreground until SIGTERM or SIGINT (no forking, no pid file). Settings
            come from built-in defaults, then the config file (--config or $QRCHECKIN_CONFIG),
            then QRCHECKIN_* environment variables (QRCHECKIN_VENUE, QRCHECKIN_BASE_URL, ...),
            then flags: each later source overrides the earlier ones. With none at all it serves
            venue DEMO and generates a secret in the state directory.

            FILES: output directory $RUNTIME_DIRECTORY, else /run/qrcheckin (root), else
            $XDG_RUNTIME_DIR/qrcheckin, else /tmp/qrcheckin-UID; state directory
            $STATE_DIRECTORY, else /var/lib/qrcheckin (root), else $XDG_STATE_HOME/qrcheckin,
            else ~/.local/state/qrcheckin. See docs/STATE.md for current.json.

            SIGNALS: SIGTERM/SIGINT stop cleanly (the state is marked stopped, the socket
            removed); SIGHUP reloads the config file and the secret (an invalid one is reported and
            the running configuration kept); SIGUSR1 is a shake.

            EXIT STATUS: 0 stopped by a signal; 64 bad flag; 65, 66, 77 secret file problems
            (bad content, missing, unsafe permissions); 69 another daemon owns the socket, or
            libqrencode, libpng or libsodium cannot be loaded (a broken installation);
            70 the event loop failed; 73 the output or state directory or socket cannot be
            created, or a directory fails the trust check (another user could have made or
            changed it or a directory on the way: docs/STATE.md, Directory trust); 78 invalid
            config. A directory that fails it while running gets no more files (degraded,
            with the reason) until a trustworthy one is back.
            """
    )

    let configuration: DaemonConfiguration

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        configuration = try DaemonConfiguration(flags: arguments, environment: context.environment)
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        // Loaded on first use by every other command; the daemon checks them before its first code.
        try LoadedLibrary.require(LoadedLibrary.kiosk)
        let logger = Logger(environment: context.environment)
        let keys = try KeySource(configuration: configuration, environment: context.environment)
        logger.info("using the \(keys.summary) in \(keys.path)")
        return try Daemon(configuration: configuration, keys: keys, environment: context.environment, logger: logger).run()
    }
}
