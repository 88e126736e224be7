import Foundation
import Glibc
import SharedCLI
import SharedAsync
import Synchronization
import Testing

/// The async program: the same help, usage line, usage errors and exit statuses as a program of
/// synchronous commands with the same specs; its commands' `run` is awaited; `main` works from
/// a plain thread (a synchronous main) and blocks the command's signals there first.
@Suite struct AsyncCommandLineToolTests {
    static let spec = CommandSpec(program: "tool", name: "work", summary: "Work.",
                                  options: [OptionSpec("exit", value: "N", help: "Exit with N."),
                                            OptionSpec("fail", value: "N", help: "Fail with N.")])
    static let other = CommandSpec(program: "tool", name: "rest", summary: "Rest.")

    /// What `--exit` and `--fail` ask for (both kinds of command do the same).
    static func outcome(_ arguments: ParsedArguments) throws(CommandError) -> ExitCode {
        if let code = try arguments.integer("fail", in: 1...255) { throw CommandError(ExitCode(rawValue: Int32(code)) ?? .software, "failed") }
        return ExitCode(rawValue: Int32(try arguments.integer("exit", in: 0...255) ?? 0)) ?? .software
    }

    struct SyncWork: Command {
        static var spec: CommandSpec { AsyncCommandLineToolTests.spec }
        let arguments: ParsedArguments
        init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
            _ = try outcome(arguments)  // validated here, as a command does
            self.arguments = arguments
        }
        func run(_ context: CommandContext) throws(CommandError) -> ExitCode { try outcome(arguments) }
    }

    struct AsyncWork: AsyncCommand {
        static var spec: CommandSpec { AsyncCommandLineToolTests.spec }
        static var signals: Set<UnixSignal> { [.user2] }
        static let runs = Mutex(0)
        let arguments: ParsedArguments
        init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
            _ = try outcome(arguments)
            self.arguments = arguments
        }
        func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
            await Task.yield()  // a real suspension
            Self.runs.withLock { $0 += 1 }
            return try outcome(arguments)
        }
    }

    struct SyncRest: Command {
        static var spec: CommandSpec { AsyncCommandLineToolTests.other }
        init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {}
        func run(_ context: CommandContext) throws(CommandError) -> ExitCode { .notRunning }
    }

    static let examples = ["tool work --exit 3   # three"]
    static let synchronous = CommandLineTool(name: "tool", version: "1.0", about: "A tool.", commands: [SyncWork.self, SyncRest.self], examples: examples)
    static let asynchronous = AsyncCommandLineTool(name: "tool", version: "1.0", about: "A tool.",
                                                   commands: [AsyncWork.self, SynchronousCommand<SyncRest>.self], examples: examples)
    static let context = CommandContext(program: "tool", environment: [:], standardOutputIsTerminal: false)

    @Test func theHelpAndTheUsageLineAreTheSynchronousToolsText() {
        #expect(Self.asynchronous.helpText == Self.synchronous.helpText)
        #expect(Self.asynchronous.usageLine == Self.synchronous.usageLine)
        #expect(Self.asynchronous.helpText.contains("  work  Work.\n  rest  Rest.\n"))
        #expect(Self.asynchronous.usageLine == "usage: tool work|rest [OPTIONS]")
    }

    @Test(arguments: [
        [], ["--help"], ["help"], ["help", "work"], ["help", "nothing"], ["--version"], ["nothing"], ["work", "--help"],
        ["work"], ["work", "--exit", "3"], ["work", "--fail", "75"], ["work", "--exit", "x"], ["work", "--bogus"], ["work", "extra"],
        ["rest"],
    ])
    func everyCommandLineEndsWithTheSynchronousToolsStatus(arguments: [String]) async {
        let expected = Self.synchronous.main(arguments, context: Self.context)
        #expect(await Self.asynchronous.run(arguments, context: Self.context) == expected)
    }

    @Test func theCommandsRunIsAwaited() async {
        let before = AsyncWork.runs.withLock { $0 }
        #expect(await Self.asynchronous.run(["work", "--exit", "1"], context: Self.context) == .failure)
        #expect(AsyncWork.runs.withLock { $0 } > before)
    }

    @Test func mainFromAPlainThreadRunsTheCommandWithItsSignalsBlockedThere() async {
        let (status, blocked) = await withCheckedContinuation { (continuation: CheckedContinuation<(ExitCode, Bool), Never>) in
            let thread = Thread {
                let status = Self.asynchronous.main(["work", "--exit", "3"], context: Self.context)
                var mask = sigset_t()
                pthread_sigmask(SIG_BLOCK, nil, &mask)
                continuation.resume(returning: (status, sigismember(&mask, SIGUSR2) == 1))
            }
            thread.start()
        }
        #expect(status == .notRunning)
        #expect(blocked)
    }
}
