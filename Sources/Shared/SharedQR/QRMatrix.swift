/// A QR symbol as a square grid of modules, `true` meaning dark. No quiet zone included.
public struct QRMatrix: Equatable, Sendable {
    /// Modules per side (21 for version 1, +4 per version).
    public let size: Int
    /// The QR version (1–40) the symbol was encoded at.
    public let version: Int
    // Inlinable (with the storage visible to it): renderers in other modules read every module
    // of every rotation's symbol, and a cross-module call per module cost more than the lookup.
    @usableFromInline let modules: [Bool]

    /// Creates a matrix from `size * size` modules in row-major order.
    public init(version: Int, size: Int, modules: [Bool]) {
        precondition(size > 0 && modules.count == size * size, "a QR matrix is square")
        self.version = version
        self.size = size
        self.modules = modules
    }

    /// Calls `body` with the modules, row-major, `size` a row: renderers that walk whole rows
    /// read them without a bounds check per module.
    @inlinable
    public func withUnsafeModules<R>(_ body: (UnsafeBufferPointer<Bool>) throws -> R) rethrows -> R {
        try modules.withUnsafeBufferPointer(body)
    }

    /// Whether the module at `row`, `column` is dark; outside the symbol (the quiet zone) is light.
    @inlinable
    public subscript(row: Int, column: Int) -> Bool {
        guard row >= 0, row < size, column >= 0, column < size else { return false }
        return modules[row * size + column]
    }
}
