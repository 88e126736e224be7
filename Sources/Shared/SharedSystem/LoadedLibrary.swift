import CSodium

/// A C library loaded on the first call into it, not at every process start (CLibraryLoader
/// says why): `--version`, `status` and `ctl` never map them. A daemon loads the ones it needs
/// up front (`load()`; `LoadedLibrary.require` in SharedCLI), so a broken installation stops
/// it at start with a clear error rather than at its first use. libsodium is here; libqrencode
/// is SharedQREncoder's (the kiosk's codes and the server's TOTP enrolments) and libpng
/// KioskAdapters', so the server links no stub of libpng.
public struct LoadedLibrary: Sendable {
    /// The module's loader: nil when loaded, else the reason it cannot be (dlerror's words).
    private let loader: @Sendable () -> UnsafePointer<CChar>?

    /// A library loaded by `loader`, a C module's `*_load()` function.
    public init(loader: @escaping @Sendable () -> UnsafePointer<CChar>?) {
        self.loader = loader
    }

    /// libsodium: random bytes, BLAKE2b, constant-time compares (and HMACs without Nettle).
    public static let sodium = LoadedLibrary { csodium_load() }

    /// Loads the library (once per process; later calls return the first outcome).
    public func load() throws(LibraryLoadError) {
        if let failure = loader() { throw LibraryLoadError(description: String(cString: failure)) }
    }
}
