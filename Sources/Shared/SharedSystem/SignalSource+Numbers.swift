import Glibc

extension SignalSource {
    /// SIGINT (Ctrl-C).
    public static let interrupt = SIGINT
    /// SIGTERM (stop).
    public static let terminate = SIGTERM
    /// SIGHUP (reload; a kiosk's terminal hung up).
    public static let hangup = SIGHUP
    /// SIGUSR1 (a shake).
    public static let user1 = SIGUSR1
    /// SIGWINCH (the terminal was resized).
    public static let windowChanged = SIGWINCH

    /// Ignores SIGPIPE for the whole process: a write to a closed pipe then fails with EPIPE,
    /// which the commands turn into exit 74, instead of killing the process.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
