import CCurl
import CPNG
import SharedQREncoder
import SharedSystem

extension LoadedLibrary {
    /// libpng, and zlib with it: PNG images.
    public static let png = LoadedLibrary { cpng_load() }
    /// Every library the daemon draws and signs with.
    public static let kiosk: [LoadedLibrary] = [.qrencode, .png, .sodium]
}

extension LoadedLibrary {
    /// libcurl: the reporter's HTTP (only `qrcheckin report` loads it; the daemon never does).
    public static let curl = LoadedLibrary { ccurl_load() }
}
