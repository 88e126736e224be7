import CheckInCLI
import Glibc

guard let arguments = Program.tool.processArguments() else { exit(ExitCode.dataError.rawValue) }
// A reader that goes away (`status --watch | head`) is a write error every command reports with
// exit 74 (README), not a death by SIGPIPE: the signal is ignored and write(2) says EPIPE.
signal(SIGPIPE, SIG_IGN)
let status = Program.tool.main(arguments, context: .current(program: Program.tool.name))
exit(status.rawValue)
