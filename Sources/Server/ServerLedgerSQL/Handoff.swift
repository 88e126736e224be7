import Synchronization

/// A value moved to the engine's thread and back without a copy. A value captured by the
/// closure a read runs is shared with that closure, so the first change there copies it: an
/// export's page buffer (a few hundred kilobytes) was allocated anew for every page, in fresh
/// pages of memory the kernel had to fault in. Taken out of here it has one owner and is
/// changed in place.
final class Handoff<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    /// Holds `value` until it is taken.
    init(_ value: consuming Value) {
        slot = Mutex(Optional(value))
    }

    /// The value, moved out (taken once).
    func take() -> Value {
        slot.withLock { $0.take()! }
    }
}
