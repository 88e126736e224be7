/// Exit statuses scripts can rely on (sysexits.h where one fits). Documented in README.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A negative answer: `verify` rejected the code; `status` found the daemon degraded.
    case failure = 1
    /// `qrcheckin-server kiosks`: a kiosk is offline (no report for 10 minutes).
    case offline = 2
    /// `status`: the daemon is not running or its state is stale.
    case notRunning = 3
    /// EX_USAGE: the command line was wrong.
    case usage = 64
    /// EX_DATAERR: the input data was wrong (empty, invalid UTF-8, too long).
    case dataError = 65
    /// EX_NOINPUT: an input file is missing or unreadable.
    case noInput = 66
    /// EX_UNAVAILABLE: a service (the daemon's socket) is unavailable.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_CANTCREAT: an output file cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: an I/O error.
    case ioError = 74
    /// EX_TEMPFAIL: try again later (the database is locked by another writer).
    case tempFail = 75
    /// EX_NOPERM: permission denied (socket peer refused, unsafe secret file).
    case noPermission = 77
    /// EX_CONFIG: the configuration is invalid.
    case config = 78
}
