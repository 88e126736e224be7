import Synchronization

/// Wakes the reports held open for a kiosk (the long poll, `?wait=`) when a steer for it is
/// given: at once when it was given on this server (the console), within `SteerBeacon`'s
/// second when it was given by another server of the same database or by `kiosks set`. A
/// held report subscribes *before* it reads its pending steer, so a steer given in between
/// rings a subscription already there: none is missed.
///
/// Bounded by the held reports themselves (each connection holds one subscription at most,
/// and libmicrohttpd's connection limit bounds those).
public final class SteerBell: Sendable {
    /// How a wait ended.
    public enum Wake: Sendable, Equatable {
        /// A steer for the kiosk was given (or may have been: read it).
        case rung
        /// The hold ran out.
        case timedOut
        /// The server is stopping: answer now.
        case closing
    }

    private struct Subscriber {
        var rung: Wake?
        var continuation: CheckedContinuation<Wake, Never>?
    }

    private struct State {
        var subscribers: [KioskKey: [UInt64: Subscriber]] = [:]
        var next: UInt64 = 0
        var closed = false
        var count = 0
    }

    private let state = Mutex(State())

    /// A bell nobody waits on yet.
    public init() {}

    /// One held report's place at the bell, from `subscribe` to its wait's end.
    public struct Ticket: Sendable {
        let bell: SteerBell
        /// The kiosk it waits for.
        public let key: KioskKey
        let id: UInt64

        /// Waits until the kiosk's bell rings, `timeout` passes on `clock`, or the bell closes;
        /// the ticket is spent then. A ring between `subscribe` and this call is not missed.
        public func wait(upTo timeout: Duration, clock: any Clock<Duration>) async -> Wake {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [bell, key, id] in
                    try? await clock.sleep(for: timeout)
                    bell.resolve(key, id, .timedOut)
                }
                let wake = await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in bell.park(key, id, continuation) }
                } onCancel: { [bell, key, id] in
                    bell.resolve(key, id, .closing)
                }
                group.cancelAll()
                bell.remove(key, id)
                return wake
            }
        }

        /// Gives the place up without waiting (the answer is ready at once).
        public func cancel() {
            bell.remove(key, id)
        }
    }

    /// Takes a place for a report of `key` about to be held.
    public func subscribe(_ key: KioskKey) -> Ticket {
        state.withLock { state in
            state.next += 1
            state.subscribers[key, default: [:]][state.next] = Subscriber(rung: state.closed ? .closing : nil)
            state.count += 1
            return Ticket(bell: self, key: key, id: state.next)
        }
    }

    /// A steer for `key` was given: every report of it held now is answered.
    public func ring(_ key: KioskKey) {
        let woken: [CheckedContinuation<Wake, Never>] = state.withLock { state in
            guard var waiting = state.subscribers[key] else { return [] }
            var woken: [CheckedContinuation<Wake, Never>] = []
            for (id, subscriber) in waiting where subscriber.rung == nil {
                if let continuation = subscriber.continuation { woken.append(continuation) }
                waiting[id] = Subscriber(rung: .rung, continuation: nil)
            }
            state.subscribers[key] = waiting
            return woken
        }
        for continuation in woken { continuation.resume(returning: .rung) }
    }

    /// The server is stopping: every held report is answered now, and any held from now on at
    /// once.
    public func close() {
        let woken: [CheckedContinuation<Wake, Never>] = state.withLock { state in
            state.closed = true
            var woken: [CheckedContinuation<Wake, Never>] = []
            for (key, waiting) in state.subscribers {
                var marked = waiting
                for (id, subscriber) in waiting where subscriber.rung == nil {
                    if let continuation = subscriber.continuation { woken.append(continuation) }
                    marked[id] = Subscriber(rung: .closing, continuation: nil)
                }
                state.subscribers[key] = marked
            }
            return woken
        }
        for continuation in woken { continuation.resume(returning: .closing) }
    }

    /// How many reports are held now (or about to be): `SteerBeacon` looks only then.
    public var waiting: Int { state.withLock { $0.count } }

    /// The kiosks with a report held now.
    public var waitingKiosks: Set<KioskKey> { state.withLock { Set($0.subscribers.keys) } }

    private func park(_ key: KioskKey, _ id: UInt64, _ continuation: CheckedContinuation<Wake, Never>) {
        let ready: Wake? = state.withLock { state in
            guard let subscriber = state.subscribers[key]?[id] else { return .closing }
            if let rung = subscriber.rung { return rung }
            state.subscribers[key]![id]!.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    private func resolve(_ key: KioskKey, _ id: UInt64, _ wake: Wake) {
        let continuation: CheckedContinuation<Wake, Never>? = state.withLock { state in
            guard let subscriber = state.subscribers[key]?[id], subscriber.rung == nil else { return nil }
            state.subscribers[key]![id] = Subscriber(rung: wake, continuation: nil)
            return subscriber.continuation
        }
        continuation?.resume(returning: wake)
    }

    private func remove(_ key: KioskKey, _ id: UInt64) {
        let orphan: CheckedContinuation<Wake, Never>? = state.withLock { state in
            guard let subscriber = state.subscribers[key]?.removeValue(forKey: id) else { return nil }
            if state.subscribers[key]!.isEmpty { state.subscribers[key] = nil }
            state.count -= 1
            return subscriber.rung == nil ? subscriber.continuation : nil
        }
        orphan?.resume(returning: .closing)
    }
}
