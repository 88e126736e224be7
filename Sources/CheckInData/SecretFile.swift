import CheckInDomain
import Glibc

/// The master secret on disk: hex text (64 hex digits and a newline from `keygen`), because text
/// passes through systemd's `LoadCredential=`/`SetCredential=`, editors and config tools intact.
/// Upper or lower case hex is read; surrounding whitespace is ignored.
///
/// Loading refuses, like ssh does for keys, a file that group or others have any permission on,
/// and anything that is not a regular file, too short or not hex.
public enum SecretFile {
    /// The file's name inside `$CREDENTIALS_DIRECTORY` and the state directory.
    public static let fileName = "secret"

    /// Reads and checks the secret at `path`.
    public static func load(from path: String) throws(SecretError) -> MasterSecret {
        // O_NONBLOCK: opening a FIFO must not hang before fstat can refuse it.
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch {
            if error.code == ENOENT { throw .missing(path: path) }
            throw .unreadable(error)
        }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw .unreadable(SystemError("inspect", path: path)) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegularFile(path: path, kind: kindName(type)) }
        guard info.st_mode & 0o077 == 0 else { throw .unsafePermissions(path: path, mode: UInt32(info.st_mode)) }
        let bytes: [UInt8]
        do {
            bytes = try file.readAll(path: path, limit: 4096)
        } catch {
            if error.code == EFBIG { throw .tooLong(path: path) }
            throw .unreadable(error)
        }
        return try decode(bytes, path: path)
    }

    /// The file content for `secret`: lower-case hex and a newline.
    public static func encode(_ secret: MasterSecret) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(secret.bytes.count * 2 + 1)
        for byte in secret.bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        text.append(UInt8(ascii: "\n"))
        return text
    }

    /// Parses file content; `path` only names the file in errors.
    public static func decode(_ content: [UInt8], path: String) throws(SecretError) -> MasterSecret {
        let isSpace: (UInt8) -> Bool = { [9, 10, 13, 32].contains($0) }
        let trimmed = content.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard !trimmed.isEmpty else { throw .empty(path: path) }
        var bytes = [UInt8]()
        var high: UInt8?
        for character in trimmed {
            guard let nibble = hexValue(character) else {
                throw .malformed(path: path, reason: isSpace(character) ? "it contains whitespace" : "it contains a non-hex character")
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw .malformed(path: path, reason: "it has an odd number of hex digits") }
        guard bytes.count >= MasterSecret.minimumLength else { throw .tooShort(path: path, bytes: bytes.count) }
        do {
            return try MasterSecret(bytes: bytes)
        } catch {
            throw .tooLong(path: path)
        }
    }

    /// Writes `secret` to `path` with mode 0600. Without `overwrite` an existing file is never
    /// touched: the content goes to a temporary file that is then hard-linked into place, which
    /// fails atomically if the name exists (O_EXCL semantics with no partial file ever visible).
    /// With `overwrite` it is an `AtomicFile` replace.
    public static func create(_ secret: MasterSecret, at path: String, overwrite: Bool) throws(SecretError) {
        do {
            try AtomicFile.write(encode(secret), to: path, mode: 0o600, replacing: overwrite)
        } catch {
            if error.code == EEXIST && !overwrite { throw .alreadyExists(path: path) }
            throw .cannotCreate(error)
        }
    }

    /// Makes a new random secret of `MasterSecret.generatedLength` bytes and writes it to `path`.
    public static func generate(at path: String, overwrite: Bool) throws(SecretError) -> MasterSecret {
        // 32 bytes always make a valid secret.
        let secret = try! MasterSecret(bytes: SecureRandom.bytes(MasterSecret.generatedLength))
        try create(secret, at: path, overwrite: overwrite)
        return secret
    }

    /// Finds the secret: `explicitPath` (`--secret-file`), else `$CREDENTIALS_DIRECTORY/secret`
    /// when that file exists, else the state directory's `secret`. When that last one is missing
    /// and `createIfMissing` (the daemon's first run), a new one is generated, creating the state
    /// directory with mode 0700 if needed. Returns the secret and the path it came from.
    public static func resolve(explicitPath: String?, environment: [String: String], locations: DefaultLocations,
                               createIfMissing: Bool) throws(SecretError) -> (secret: MasterSecret, path: String) {
        if let explicitPath {
            return (try load(from: explicitPath), explicitPath)
        }
        if let credentials = environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty {
            let path = credentials + "/" + fileName
            do {
                return (try load(from: path), path)
            } catch .missing {
                // The unit passes other credentials but not this one: fall through to the state directory.
            }
        }
        let path = locations.secretFile
        do {
            return (try load(from: path), path)
        } catch .missing(let missing) where createIfMissing {
            try makeDirectory(locations.stateDirectory)
            do {
                return (try generate(at: missing, overwrite: false), missing)
            } catch .alreadyExists {
                // Another process generated it between our load and create: use theirs.
                return (try load(from: missing), missing)
            }
        }
    }

    /// Creates the state directory `path` with mode 0700 (missing parents get 0755, as with
    /// `mkdir -p`, so a private state directory does not hide its neighbours).
    public static func makeDirectory(_ path: String) throws(SecretError) {
        do {
            try TextFile.makeDirectory(path, mode: 0o700)
        } catch {
            throw .cannotCreate(error)
        }
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
