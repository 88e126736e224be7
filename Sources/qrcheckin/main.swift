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
// A global, so it lives until exit(): freeing its environment dictionary on the way out cost as
// much as building it, in every command.
let context = CommandContext.current()
let status = Program.main(arguments, context: context)
exit(status.rawValue)
