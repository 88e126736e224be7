import Synchronization

/// Rate budgets of many clients in a fixed amount of memory that a flood cannot flush.
///
/// A client's slot is found by a keyed hash of its key (Swift's `Hasher`, seeded at random per
/// process: an attacker cannot aim keys at one slot) among `probe` neighbouring slots. When none
/// of them is free, the newcomer takes the slot of the least suspicious client there (the one
/// closest to a full budget); a client that is over its budget now (locked out) is never
/// evicted for a newcomer: when every candidate is, the newcomer is charged together with the
/// least suspicious of them (it may be turned away with it). So memory is bounded, and 100,000
/// addresses trying once each forget nobody who is locked out.
public final class BoundedRateTable: Sendable {
    private struct Slot {
        var key: String
        /// When the client's spending is all refilled (ms).
        var refilledAt: Int64
    }

    /// The budget every client has.
    public let budget: RateBudget
    /// Slots (a power of two).
    public let capacity: Int
    /// Neighbouring slots a key may live in.
    public static let probe = 8
    private let slots: Mutex<[Slot?]>

    /// A table of `capacity` clients (rounded up to a power of two) with `budget` each.
    public init(budget: RateBudget, capacity: Int = 65_536) {
        self.budget = budget
        var size = 16
        while size < capacity { size <<= 1 }
        self.capacity = size
        slots = Mutex([Slot?](repeating: nil, count: size))
    }

    /// Milliseconds until `key` may spend again at `now` (0: it may now).
    public func wait(_ key: String, now: Int64) -> Int64 {
        slots.withLock { slots in
            // A newcomer that would share a locked client's slot waits with it.
            let index = find(key, in: slots, now: now)
            guard let slot = slots[index] else { return 0 }
            return slot.key == key || isLocked(slot, now) ? budget.wait(refilledAt: slot.refilledAt, now: now) : 0
        }
    }

    /// Spends one event of `key`'s budget at `now` (whether or not it was allowed).
    public func spend(_ key: String, now: Int64) {
        _ = charge(key, now: now, onlyIfAllowed: false)
    }

    /// Spends one event of `key`'s budget at `now` if it is allowed; whether it was.
    public func admit(_ key: String, now: Int64) -> Bool {
        charge(key, now: now, onlyIfAllowed: true)
    }

    private func charge(_ key: String, now: Int64, onlyIfAllowed: Bool) -> Bool {
        slots.withLock { slots in
            let index = find(key, in: slots, now: now)
            if slots[index] == nil || (slots[index]!.key != key && !isLocked(slots[index]!, now)) {
                slots[index] = Slot(key: key, refilledAt: now)
            }
            let refilledAt = slots[index]!.refilledAt
            if onlyIfAllowed && budget.wait(refilledAt: refilledAt, now: now) > 0 { return false }
            slots[index]!.refilledAt = budget.spend(refilledAt: refilledAt, now: now)
            return true
        }
    }

    private func isLocked(_ slot: Slot, _ now: Int64) -> Bool {
        budget.wait(refilledAt: slot.refilledAt, now: now) > 0
    }

    /// The slot of `key`; when it has none, the slot it would take (free, refilled, or the least
    /// suspicious candidate's; a locked one is shared, never taken over).
    private func find(_ key: String, in slots: [Slot?], now: Int64) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        let start = hasher.finalize() & (capacity - 1)
        var best: (index: Int, refilledAt: Int64)?
        for step in 0..<Self.probe {
            let index = (start + step) & (capacity - 1)
            guard let slot = slots[index] else {
                if best == nil || best!.refilledAt > Int64.min { best = (index, Int64.min) }
                continue
            }
            if slot.key == key { return index }
            // Refilled clients are as good as free; otherwise prefer the one closest to it.
            let rank = slot.refilledAt <= now ? Int64.min : slot.refilledAt
            if best == nil || rank < best!.refilledAt { best = (index, rank) }
        }
        return best!.index
    }
}
