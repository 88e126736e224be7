/// Why a library could not be loaded: "cannot load libpng16.so.16: <the dynamic loader's words>".
public struct LibraryLoadError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
