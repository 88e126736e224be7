import KioskAdapters
import KioskCore
import KioskViews
import SharedDomain
import SharedSystem

/// How `status` and `report` read a daemon: its live state from the control socket when this
/// user may ask (a daemon that cannot write its files is degraded at once), else its
/// `current.json`, believing nothing from a directory that fails the trust check
/// (docs/STATE.md, Directory trust), and judging the state as `status` does.
struct DaemonProbe {
    /// One daemon's verdict, or why there is none to give.
    enum Evaluation {
        case report(StatusReport, pngPath: String, pngAgeSeconds: Int64?)
        case missing(String)
        /// The directory (or the socket's) must not be believed: why.
        case refused(String)
    }

    /// How long the live state is waited for (a busy daemon is then read from its file).
    var socketTimeoutMilliseconds: Int32 = 500

    /// Judges the daemon writing to `directory` with its socket at `socketPath`. `live` (what
    /// `status` does) asks the daemon itself when this user may; without it only the files and
    /// the process table are looked at, which costs the daemon nothing: the reporter looks once a
    /// second so, and asks the daemon only before a report it sends on its interval.
    func evaluate(_ directory: String, socketPath: String, live: Bool = true, now: () -> WallTime = { SystemClock().now() }) -> Evaluation {
        let jsonPath = directory + "/current.json"
        let pngPath = directory + "/current.png"
        let held: TrustedDirectory?
        let peer: ExpectedPeer?
        do {
            held = try DaemonDirectory.lookUp(directory)
            let socketDirectory = PathName.directory(of: socketPath)
            peer = try (socketDirectory == directory ? held : DaemonDirectory.lookUp(socketDirectory)).map { ExpectedPeer(directory: $0) }
        } catch {
            return .refused(DaemonDirectory.refusal(error))
        }
        let report: StatusReport
        // The daemon's own word beats the file when this user may ask: a daemon that cannot
        // write its files says it is degraded at once instead of seconds later. It is asked
        // first, so the file is read and parsed only when the socket is not this user's (or
        // nobody answers): the reply is the same state, one parse instead of two.
        if live, let answer = liveDocument(socketPath, peer: peer) {
            report = StatusReport(document: answer, now: now(), processAlive: true, socketRefused: false, offsetSeconds: offset(now()))
        } else {
            let document: StateDocument
            do {
                // By the descriptor that passed the check (by path only when there is none to check:
                // then the read fails with its own reason).
                let bytes = try held?.read("current.json", limit: 64 * 1024) ?? TextFile.read(jsonPath, limit: 64 * 1024)
                document = try StateDocument(parsing: bytes)
            } catch {
                let reason = (error as? SystemError).map { $0.isMissing ? "no \(jsonPath)" : $0.description }
                return .missing("not running: " + (reason ?? "\(jsonPath) is unreadable: \(error)"))
            }
            let alive = SignalProcessLiveness().isAlive(pid: document.pid)
            // A socket that refuses connections has no listener: the daemon died (kill -9) even
            // if its pid lingers as a zombie or was reused. A stopped daemon removed its socket.
            let refused = live && alive && document.phase != .stopped && ControlSocketProbe.refuses(socketPath)
            report = StatusReport(document: document, now: now(), processAlive: alive, socketRefused: refused, offsetSeconds: offset(now()))
        }
        let age = FileAge.seconds(of: pngPath, now: now())
        return .report(report, pngPath: pngPath, pngAgeSeconds: age)
    }

    /// The local time zone's offset at `time` (for "paused … at 14:02").
    private func offset(_ time: WallTime) -> Int { SystemTimeZone.offsetSeconds(at: time.seconds) }

    /// How reporting goes for the daemon writing to `directory` (`qrcheckin report`'s
    /// `report.json`), if a reporter ever reported on it.
    func reporting(_ directory: String, now: WallTime = SystemClock().now()) -> ReportingSummary? {
        ReporterFiles.find(daemonOutput: directory).map {
            ReportingSummary(status: $0, running: SignalProcessLiveness().isAlive(pid: $0.pid), now: now.seconds)
        }
    }

    private func liveDocument(_ socketPath: String, peer: ExpectedPeer?) -> StateDocument? {
        (try? ControlClient.send("get", to: socketPath, peer: peer, timeoutMilliseconds: socketTimeoutMilliseconds))
            .flatMap { JSONValueReply(text: $0).state }
    }
}
