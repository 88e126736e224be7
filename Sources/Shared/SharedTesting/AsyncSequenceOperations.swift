/// `map` and `allSatisfy` for closures that await, one element after the other as the
/// synchronous ones run (tests that drove a synchronous handler in a loop now await it, and
/// their order — a budget spent request by request — is part of what they assert).
extension Sequence {
    public func asyncMap<T, E: Error>(_ transform: (Element) async throws(E) -> T) async throws(E) -> [T] {
        var results: [T] = []
        results.reserveCapacity(underestimatedCount)
        for element in self { results.append(try await transform(element)) }
        return results
    }

    public func asyncAllSatisfy<E: Error>(_ predicate: (Element) async throws(E) -> Bool) async throws(E) -> Bool {
        for element in self where try await !predicate(element) { return false }
        return true
    }
}

extension Collection where Element: Sendable {
    /// `transform` of every element, each in a child task of its own, all at once (what a
    /// synchronous test did with `DispatchQueue.concurrentPerform`): the results in the
    /// elements' order.
    public func concurrentMap<T: Sendable>(_ transform: @escaping @Sendable (Element) async -> T) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            for (index, element) in enumerated() { group.addTask { (index, await transform(element)) } }
            var results: [(Int, T)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
