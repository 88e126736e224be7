import Glibc
import SharedAsync
import SharedCLI

let context = CommandContext.current(program: ServerProgram.tool.name)
guard let arguments = ServerProgram.tool.processArguments(context) else { exit(ExitCode.dataError.rawValue) }
// A reader that goes away (`checkins | head`) is a write error (exit 74), not a death by SIGPIPE;
// a client that hangs up on the server is libmicrohttpd's EPIPE, never a signal.
signal(SIGPIPE, SIG_IGN)
// The visitor log and its WAL are personal data: nothing this program creates is for others.
umask(0o077)
let status = ServerProgram.tool.main(arguments, context: context)
// What the command opened is closed before the process ends (`OpenedLedgers`).
AsyncMain.wait { await OpenedLedgers.closeAll() }
exit(status.rawValue)
