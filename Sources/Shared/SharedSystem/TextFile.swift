import Glibc

/// Reads small text files whole.
public enum TextFile {
    /// The file's bytes; missing files throw ENOENT like any other error. Only a regular file is
    /// read (`RegularFile`): a FIFO, device or directory is refused at once, never waited on.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        try RegularFile.read(path, limit: limit)
    }
}
