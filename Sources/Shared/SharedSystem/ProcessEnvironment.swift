import Glibc

/// The process's environment variables as the kernel passed them (`environ`).
public enum ProcessEnvironment {
    /// Every `NAME=value` entry; an entry without `=` is skipped.
    public static func current() -> [String: String] {
        // Bytes, not Characters: every command pays for this at start-up, and splitting each
        // entry by grapheme (String.firstIndex(of:)) cost more than the rest of `--version`.
        var count = 0
        while environ[count] != nil { count += 1 }
        var environment = [String: String](minimumCapacity: count)
        for index in 0..<count {
            let entry = UnsafeRawPointer(environ[index]!).assumingMemoryBound(to: UInt8.self)
            let length = strlen(environ[index]!)
            guard let equals = memchr(entry, Int32(UInt8(ascii: "=")), length) else { continue }
            let keyLength = UnsafeRawPointer(equals) - UnsafeRawPointer(entry)
            let key = String(decoding: UnsafeBufferPointer(start: entry, count: keyLength), as: UTF8.self)
            environment[key] = String(decoding: UnsafeBufferPointer(start: entry + keyLength + 1, count: length - keyLength - 1),
                                      as: UTF8.self)
        }
        return environment
    }
}

extension StandardStream {
    /// Whether this stream is a terminal (isatty(3)).
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}
