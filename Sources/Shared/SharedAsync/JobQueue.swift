/// `BlockingPool`'s FIFO: appended at the end, taken from the front, and a cancelled job taken
/// out from anywhere (its slot left empty and skipped). Amortised O(1) but for that removal,
/// which scans (cancellation is rare).
struct JobQueue {
    private var slots: [PoolJob?] = []
    private var head = 0
    /// The jobs in the queue (empty slots not counted).
    private(set) var count = 0

    /// Whether no job waits.
    var isEmpty: Bool { count == 0 }

    /// Adds `job` at the end.
    mutating func append(_ job: PoolJob) {
        slots.append(job)
        count += 1
    }

    /// Takes the oldest job.
    mutating func popFirst() -> PoolJob? {
        while head < slots.count {
            let job = slots[head]
            slots[head] = nil
            head += 1
            if let job {
                count -= 1
                compact()
                return job
            }
        }
        return nil
    }

    /// Takes the job numbered `id` out, wherever it is.
    mutating func remove(_ id: UInt64) -> PoolJob? {
        guard let index = slots[head...].firstIndex(where: { $0?.id == id }) else { return nil }
        let job = slots[index]
        slots[index] = nil
        count -= 1
        compact()
        return job
    }

    /// Frees the taken slots at the front: all of them once the queue is empty (the usual
    /// case, keeping the capacity), else when they are most of the array.
    private mutating func compact() {
        if count == 0 {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > slots.count {
            slots.removeFirst(head)
            head = 0
        }
    }
}
