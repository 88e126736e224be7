import Synchronization

/// Events counted per key (an address, a name) and let into the audit log at most once an
/// interval per key, each entry naming how many came since the last one: the spoofed sign-in
/// headers of one address, the refused sign-ins of one proxy user. A flood then costs one write
/// a minute, not one a request, and the log still says it happened and how often. Bounded: at
/// most `capacity` keys, the longest-quiet forgotten first (a flood of addresses cannot grow it).
public final class AuditPacer: Sendable {
    private struct Entry {
        /// When the last entry was written (ms).
        var written: Int64
        /// Events since then, not yet in the log.
        var unwritten: Int
    }

    private let table = Mutex<[String: Entry]>([:])
    private let intervalMilliseconds: Int64
    private let capacity: Int

    /// One entry per key every `intervalMilliseconds` at most, `capacity` keys remembered.
    public init(intervalMilliseconds: Int64 = 60_000, capacity: Int = 4096) {
        self.intervalMilliseconds = intervalMilliseconds
        self.capacity = capacity
    }

    /// One event of `key` at `now` (ms): the count to write an entry of now (this event and
    /// those counted since the last entry), or nil when it is only counted.
    public func note(_ key: String, now: Int64) -> Int? {
        table.withLock { table in
            if var entry = table[key], now - entry.written < intervalMilliseconds {
                entry.unwritten += 1
                table[key] = entry
                return nil
            }
            let count = (table[key]?.unwritten ?? 0) + 1
            if table[key] == nil, table.count >= capacity, let quietest = table.min(by: { $0.value.written < $1.value.written })?.key {
                table[quietest] = nil
            }
            table[key] = Entry(written: now, unwritten: 0)
            return count
        }
    }
}
