import CheckInData
import Glibc

// Arguments are taken as raw bytes: Swift's CommandLine.arguments would silently repair
// invalid UTF-8, and `encode` must report it instead.
// argc can be 0 (execve with an empty argv): then there is no command, a usage error.
var arguments = [String]()
for index in stride(from: 1, to: Int(CommandLine.argc), by: 1) {
    let raw = CommandLine.unsafeArgv[index]!
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
    guard let argument = String(validating: bytes, as: UTF8.self) else {
        StandardStream.error.write("qrcheckin: argument \(index) is not valid UTF-8\n")
        exit(ExitCode.dataError.rawValue)
    }
    arguments.append(argument)
}
// A reader that goes away (`status --watch | head`) is a write error every command reports with
// exit 74 (README), not a death by SIGPIPE: the signal is ignored and write(2) says EPIPE.
signal(SIGPIPE, SIG_IGN)
// A global, so it lives until exit(): freeing its environment dictionary on the way out cost as
// much as building it, in every command.
let context = CommandContext.current()
let status = Program.main(arguments, context: context)
exit(status.rawValue)
