import CheckInData
import Glibc

let arguments: [String]
do {
    arguments = try ProcessArguments.current()
} catch {
    CommandContext.current().error("argument \(error.index) is not valid UTF-8")
    exit(ExitCode.dataError.rawValue)
}
// A reader that goes away (`status --watch | head`) is a write error every command reports with
// exit 74 (README), not a death by SIGPIPE: the signal is ignored and write(2) says EPIPE.
signal(SIGPIPE, SIG_IGN)
let status = Program.main(arguments, context: .current())
exit(status.rawValue)
