import Glibc
@testable import SharedAsync
import SharedCLI
import Testing

/// A one-shot command's task: on the executor's own thread until it adopts a blocking pool,
/// then on that pool's threads, where the pool's work runs at once on the task's own thread;
/// back on its own thread once the adopted pool is shut down, never stranded.
@Suite struct CommandExecutorTests {
    /// Waits (asking `pool` for nothing) until the task runs on one of `pool`'s threads. A task
    /// moves at a suspension whose answer comes after it suspended: work that ends before its
    /// task has suspended (or a yield answered as fast) leaves the task where it is.
    static func settle(on pool: BlockingPool) async -> Bool {
        for _ in 0..<10_000 where !pool.isCurrentThread {
            _ = try? await pool.run { () throws(Never) in usleep(100) }
        }
        return pool.isCurrentThread
    }

    @Test func beforeAdoptingAPoolTheTaskRunsOnTheExecutorsOwnThread() async throws {
        let names = try await CommandExecutor().run { () async -> [String] in
            var names: [String] = []
            for _ in 0..<20 {
                await Task.yield()
                names.append(currentThreadName())
            }
            return names
        }
        #expect(names == Array(repeating: "command-0", count: 20))
    }

    @Test func anAdoptedPoolRunsTheTaskAndItsWorkOnOneThread() async throws {
        let pool = try BlockingPool(threads: 4, name: "ce-adopt")
        let executor = try CommandExecutor()
        let (settled, seen) = await executor.run { () async -> (Bool, [(task: String, work: String, same: Bool, queued: Int)]) in
            CommandExecutor.current?.adopt(pool)
            let settled = await Self.settle(on: pool)
            var seen: [(task: String, work: String, same: Bool, queued: Int)] = []
            for index in 0..<50 {
                if index % 2 == 0 { await Task.yield() }
                let task = pthread_self()
                let work = try? await pool.run { () throws(Never) in (currentThreadName(), pthread_equal(pthread_self(), task) != 0, pool.queued) }
                if let work { seen.append((currentThreadName(), work.0, work.1, work.2)) }
            }
            return (settled, seen)
        }
        #expect(settled)
        #expect(seen.count == 50)
        for step in seen {
            #expect(step.task.hasPrefix("ce-adopt-"))
            // The work ran where the task was, without going through the queue.
            #expect(step.work == step.task)
            #expect(step.same)
            #expect(step.queued == 0)
        }
        #expect(executor.pool === pool)
        await pool.shutdown()
    }

    @Test func theFirstPoolAdoptedStays() async throws {
        let first = try BlockingPool(threads: 1, name: "ce-first"), second = try BlockingPool(threads: 1, name: "ce-second")
        let (settled, neverOnSecond) = try await CommandExecutor().run { () async -> (Bool, Bool) in
            CommandExecutor.current?.adopt(first)
            CommandExecutor.current?.adopt(second)
            var neverOnSecond = true
            for _ in 0..<10_000 where !first.isCurrentThread {
                _ = try? await second.run { () throws(Never) in usleep(100) }
                if second.isCurrentThread { neverOnSecond = false }
            }
            return (first.isCurrentThread, neverOnSecond)
        }
        #expect(settled)
        #expect(neverOnSecond)
        await first.shutdown()
        await second.shutdown()
    }

    @Test func workAskedOnThePoolsThreadIsRefusedOnceCancelledAndNeverRuns() async throws {
        let pool = try BlockingPool(threads: 1, name: "ce-cancel")
        let ran = Locked(false)
        let outcome = try await CommandExecutor().run { () async -> (onPool: Bool, error: BlockingPoolError<Never>?) in
            CommandExecutor.current?.adopt(pool)
            guard await Self.settle(on: pool) else { return (false, nil) }
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(BlockingPoolError<Never>) {
                try await pool.run { () throws(Never) in ran.withLock { $0 = true } }
                return (pool.isCurrentThread, nil)
            } catch {
                return (pool.isCurrentThread, error)
            }
        }
        #expect(outcome.onPool)
        #expect(outcome.error == .cancelled)
        #expect(!ran.value)
        await pool.shutdown()
    }

    @Test func aShutDownPoolHandsTheTaskBackToTheExecutorsOwnThread() async throws {
        let pool = try BlockingPool(threads: 2, name: "ce-shut")
        let outcome = try await CommandExecutor().run { () async -> (Bool, String, BlockingPoolError<Never>?) in
            CommandExecutor.current?.adopt(pool)
            let settled = await Self.settle(on: pool)
            // The task's own thread must end too: the answer comes after the task suspended.
            await pool.shutdown()
            let refused: BlockingPoolError<Never>?
            do throws(BlockingPoolError<Never>) {
                try await pool.run { () throws(Never) in Issue.record("work ran on a shut-down pool") }
                refused = nil
            } catch {
                refused = error
            }
            return (settled, currentThreadName(), refused)
        }
        #expect(outcome.0)
        #expect(outcome.1 == "command-0")
        #expect(outcome.2 == .closed)
    }

    @Test func aOneShotCommandRunsWithAnExecutorAndAServingOneWithout() async throws {
        let tool = AsyncCommandLineTool(name: "ce", version: "1", about: "test", commands: [OneShot.self, Serving.self], examples: [])
        let context = CommandContext(program: "ce", environment: [:], standardOutputIsTerminal: false)
        #expect(await tool.run(["one-shot"], context: context) == .success)
        #expect(await tool.run(["serving"], context: context) == .success)
    }

    struct OneShot: AsyncCommand {
        static let spec = CommandSpec(program: "ce", name: "one-shot", summary: "Has an executor.")
        init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {}
        func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
            CommandExecutor.current == nil || currentThreadName() != "command-0" ? .dataError : .success
        }
    }

    struct Serving: AsyncCommand {
        static let spec = CommandSpec(program: "ce", name: "serving", summary: "Has none.")
        static var serves: Bool { true }
        init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {}
        func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
            CommandExecutor.current == nil ? .success : .dataError
        }
    }
}
