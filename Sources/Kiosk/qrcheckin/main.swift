import SharedCLI
import SharedSystem

let context = CommandContext.current(program: Program.tool.name)
guard let arguments = Program.tool.processArguments(context) else { CurrentProcess.exit(ExitCode.dataError.rawValue) }
// A reader that goes away (`status --watch | head`) is a write error every command reports with
// exit 74 (README), not a death by SIGPIPE: the signal is ignored and write(2) says EPIPE.
SignalSource.ignoreBrokenPipes()
let status = Program.tool.main(arguments, context: context)
CurrentProcess.exit(status.rawValue)
