import CPNG
import SharedQREncoder
import SharedSystem

extension LoadedLibrary {
    /// libpng, and zlib with it: PNG images.
    public static let png = LoadedLibrary { cpng_load() }
    /// Every library the daemon draws and signs with.
    public static let kiosk: [LoadedLibrary] = [.qrencode, .png, .sodium]
}
