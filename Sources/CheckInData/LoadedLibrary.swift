import CPNG
import CQRencode
import CSodium

/// A C library loaded on the first call into it, not at every process start (CLibraryLoader
/// says why): `--version`, `status` and `ctl` never map them. A daemon loads the ones it needs
/// up front (`load()`; `LoadedLibrary.require` in CheckInCLI), so a broken installation stops
/// it at start with a clear error rather than at its first code.
public enum LoadedLibrary: CaseIterable, Sendable {
    /// libqrencode: QR symbols.
    case qrencode
    /// libpng, and zlib with it: PNG images.
    case png
    /// libsodium: random bytes, BLAKE2b, constant-time compares (and HMACs without Nettle).
    case sodium

    /// Loads the library (once per process; later calls return the first outcome).
    public func load() throws(LibraryLoadError) {
        let failure: UnsafePointer<CChar>? = switch self {
        case .qrencode: cqrencode_load()
        case .png: cpng_load()
        case .sodium: csodium_load()
        }
        if let failure { throw LibraryLoadError(description: String(cString: failure)) }
    }
}
