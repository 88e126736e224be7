import KioskViews
import SharedCLI
import SharedQR
import SharedText

/// `qrcheckin show`: the full-screen kiosk that follows the daemon's `current.json` live.
struct ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show",
        summary: "Show the live check-in QR full screen on this terminal (a kiosk).",
        options: ClientOptions.specs.filter { $0.long != "socket" } + [
            OptionSpec("mode", short: "m", value: "ansi|utf8|utf8i|ascii", help: "How to draw the QR: ansi (black on white, default), utf8, utf8i or ascii."),
            OptionSpec("lang", short: "l", value: "ko|en", help: "Language of the words (default: the locale's)."),
        ],
        discussion: """
            Follows DIR/current.json with inotify and re-draws the moment the daemon writes a new
            code: the QR (re-encoded from the URL, level M, quiet zone 4), the safe number, the
            seconds left, shake and refresh modes, and a warning line when the daemon is degraded.
            Paused, stale (expired more than 5 s ago, or the daemon's pid is gone) and
            not-running states show a message and no QR. A terminal too small for the code says
            the size it needs.

            Without --mode: ansi; utf8 when NO_COLOR is set; ascii when the locale is not UTF-8.
            Without --lang the words follow the locale, like status: Korean when LC_ALL, else
            LC_MESSAGES, else LANG starts with 'ko'; English otherwise, and always when the
            terminal cannot show Hangul (a non-UTF-8 locale, or TERM=linux), where safe-number
            syllables are also romanized (12 hyeon 34 gyu).

            --venue V shows venue V's code: OUTPUT/V, or the default daemon when it serves V
            (see 'qrcheckin status --help').

            Keys: q or Ctrl-C quits; Ctrl-L redraws. SIGTERM, SIGHUP and SIGINT quit too. The
            terminal is always restored.

            The directory must pass the trust check (docs/STATE.md, Directory trust): one
            another user could have made or changed is refused at start, and while running the
            screen says so instead of showing its code.

            EXIT STATUS: 0 quit by key or signal; 64 bad command line, or standard input or
            output is not a terminal; 69 libqrencode cannot be loaded; 74 an I/O error in the
            event loop; 77 the directory fails the trust check; 78 invalid configuration.
            """
    )

    let options: KioskOptions

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        let mode = try arguments.choice("mode", as: TerminalStyle.self)
        let language = try arguments.choice("lang", as: Language.self)
        // The same lookup as status and ctl: flag, QRCHECKIN_* variables, config file, defaults.
        let directory = try ClientOptions(arguments, context: context).outputDirectory
        guard !directory.isEmpty else { throw .usage("--output-dir must not be empty") }
        options = KioskOptions.resolve(mode: mode, language: language, environment: context.environment,
                                       outputDirectory: directory)
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        try KioskSession(options: options).run()
    }
}
