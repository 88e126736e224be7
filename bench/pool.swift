// The cost of `await pool.run { }` (BlockingPool, SharedAsync) beside a bare call: wall time,
// CPU time (the process's, all threads) and context switches per call, for one caller (each call
// a round trip: the task suspends, a pool thread wakes, runs, resumes the task) and for several
// callers at once (calls overlap: throughput); beside it, the same hand-off to a serial
// DispatchQueue and back (a reference measured in the same run: what a thread hand-off costs on
// this machine now, whatever the load). Built and run by scripts/bench-pool with the
// pool's own source files; docs/BENCHMARKS.md, "The blocking pool", has the figures.
import Dispatch
import Glibc

@inline(never) func blank(_ x: Int) -> Int { x &+ 1 }

func clock(_ id: clockid_t) -> Int64 {
    var t = timespec(); clock_gettime(id, &t); return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}
func switches() -> Int {
    var usage = rusage(); getrusage(RUSAGE_SELF.rawValue, &usage); return usage.ru_nvcsw + usage.ru_nivcsw
}
func report(_ label: String, calls: Int, _ body: () async throws -> Void) async rethrows {
    let wall = clock(CLOCK_MONOTONIC), cpu = clock(CLOCK_PROCESS_CPUTIME_ID), csw = switches()
    try await body()
    let w = (clock(CLOCK_MONOTONIC) - wall) / Int64(calls), c = (clock(CLOCK_PROCESS_CPUTIME_ID) - cpu) / Int64(calls)
    print("\(label): \(w) ns wall, \(c) ns CPU, \(Double((switches() - csw) * 100 / calls) / 100) context switches per call")
}

let calls = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200_000
let threads = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 4
let pool = try BlockingPool(threads: threads, name: "bench")
nonisolated(unsafe) var sink = 0
await report("bare call", calls: calls * 100) { for i in 0..<calls * 100 { sink = blank(sink &+ i) } }
for _ in 0..<1000 { _ = try await pool.run { 1 } }  // warm
try await report("await pool.run, 1 caller", calls: calls) { for i in 0..<calls { sink &+= try await pool.run { blank(i) } } }
let queue = DispatchQueue(label: "reference")
await report("reference: DispatchQueue.async + continuation, 1 caller", calls: calls) {
    for i in 0..<calls { sink &+= await withCheckedContinuation { c in queue.async { c.resume(returning: blank(i)) } } }
}
for callers in [2, 8, 64] {
    let per = calls / callers
    try await report("await pool.run, \(callers) callers", calls: per * callers) {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<callers { group.addTask { var s = 0; for i in 0..<per { s &+= try await pool.run { blank(i) } }; return s } }
            for try await s in group { sink &+= s }
        }
    }
}
if sink == 42 { print("") }
await pool.shutdown()
