/// Why a secret file could not be loaded or created. Each description is one line that names
/// the path, says what is wrong, and where possible how to fix it. None ever includes the secret.
public enum SecretError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case missing(path: String)
    /// Nothing named a secret, this user's own (`own`) does not exist, and the installed
    /// service's (`service`) is there but only root may read it.
    case serviceSecretUnreadable(service: String, own: String)
    /// The file exists but cannot be opened or read.
    case unreadable(SystemError)
    /// The path is a directory, a device, a FIFO or a socket.
    case notRegularFile(path: String, kind: String)
    /// The file exists but this user may not open or read it.
    case permissionDenied(SystemError)
    /// Group or others have some permission on the file (ssh refuses such keys too); `target`
    /// is where a symbolic link at `path` points.
    case unsafePermissions(path: String, mode: UInt32, target: String?)
    /// The file belongs to another user (not this one, not root): ssh refuses such keys too.
    case wrongOwner(path: String, owner: UInt32, target: String?)
    /// A venue key was given where only the master secret will do (deriving venue keys).
    case venueKeyNotMaster(path: String, venue: String)
    /// A report key was given where a key that signs codes is needed.
    case reportKeyNotSigningKey(path: String, venue: String)
    /// A venue key or report key of another venue than the one asked for.
    case wrongVenue(path: String, serves: String, requested: String)
    /// The file holds nothing but whitespace.
    case empty(path: String)
    /// The file decodes to fewer than `MasterSecret.minimumLength` bytes.
    case tooShort(path: String, bytes: Int)
    /// The file is larger than any secret.
    case tooLong(path: String)
    /// The file is not hex text.
    case malformed(path: String, reason: String)
    /// `create` without overwrite found a file already there.
    case alreadyExists(path: String)
    /// The file or its directory cannot be created or written.
    case cannotCreate(SystemError)
    /// Its directory cannot be made, or fails the directory-trust check (docs/STATE.md).
    case untrustedDirectory(DirectoryTrustError)

    public var description: String {
        switch self {
        case .missing(let path):
            "secret file \(path) does not exist; create one with: qrcheckin keygen -o \(path)"
        case .serviceSecretUnreadable(let service, let own):
            "cannot read \(service), the secret of the installed qrcheckin service (run as root, or pass "
                + "--secret-file), and this user has none of its own (\(own) does not exist)"
        case .unreadable(let error):
            "cannot read secret file \(error.path): \(error.reason)"
        case .notRegularFile(let path, let kind):
            "secret file \(path) is \(kind), not a regular file"
        case .permissionDenied(let error):
            "cannot read secret file \(error.path): \(error.reason) (run as its owner, or give this user its own copy)"
        case .unsafePermissions(let path, let mode, let target):
            "secret file \(Self.name(path, target)) is \(mode & 0o044 != 0 ? "readable" : "accessible") by group or others "
                + "(mode \(Self.octal(mode))); run chmod 600 \(target ?? path)"
        case .wrongOwner(let path, let owner, let target):
            "secret file \(Self.name(path, target)) belongs to uid \(owner), not to this user; "
                + "refusing it, like ssh (run chown $(id -u) \(target ?? path) if it is yours)"
        case .venueKeyNotMaster(let path, let venue):
            "\(path) is the venue key of \(venue), not a master secret; venue keys are derived from the master secret"
        case .reportKeyNotSigningKey(let path, let venue):
            "\(path) is the report key of \(venue): it signs kiosk reports only and can neither issue nor verify codes; "
                + "give the master secret or the venue key"
        case .wrongVenue(let path, let serves, let requested):
            "\(path) serves venue \(serves) only, not \(requested): make \(requested)'s report key with "
                + "'qrcheckin keygen --report --venue \(requested) --from SECRET -o \(path) --force'"
        case .empty(let path):
            "secret file \(path) is empty; replace it with: qrcheckin keygen --force -o \(path)"
        case .tooShort(let path, let bytes):
            "secret file \(path) holds only \(bytes) byte\(bytes == 1 ? "" : "s"); at least 16 are needed (keygen makes 32)"
        case .tooLong(let path):
            "secret file \(path) is too large to be a secret (more than 1024 bytes)"
        case .malformed(let path, let reason):
            "secret file \(path) is not a hex secret (\(reason)); keygen writes 64 hex digits and a newline"
        case .alreadyExists(let path):
            "secret file \(path) already exists; refusing to replace it (keygen --force does)"
        case .cannotCreate(let error):
            "cannot create secret file: \(error.description)"
        case .untrustedDirectory(let error):
            "cannot create secret file: \(error.description)"
        }
    }

    /// `LINK (a link to TARGET)` for a symbolic link, else the path.
    static func name(_ path: String, _ target: String?) -> String {
        target.map { "\(path) (a link to \($0))" } ?? path
    }

    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
