import Glibc

extension SystemError {
    /// Nothing is at the path (ENOENT).
    public var isMissing: Bool { code == ENOENT }
    /// Nothing is at the path, or a component of it is not a directory (ENOENT, ENOTDIR).
    public var isMissingPath: Bool { code == ENOENT || code == ENOTDIR }
    /// Another socket is bound to the address (EADDRINUSE).
    public var isAddressInUse: Bool { code == EADDRINUSE }
    /// The path is a directory where a file was wanted (EISDIR).
    public var isDirectory: Bool { code == EISDIR }
    /// The file is larger than the limit read (EFBIG).
    public var isTooBig: Bool { code == EFBIG }
}
