import Glibc
import SharedDomain

/// The master secret on disk: hex text (64 hex digits and a newline from `keygen`), because text
/// passes through systemd's `LoadCredential=`/`SetCredential=`, editors and config tools intact.
/// Upper or lower case hex is read; surrounding whitespace is ignored.
///
/// Loading refuses, like ssh does for keys, a file that group or others have any permission on,
/// and anything that is not a regular file, too short or not hex.
public enum SecretFile {
    /// The file's name inside `$CREDENTIALS_DIRECTORY` and the state directory.
    public static let fileName = "secret"

    /// The first word of a venue key file; the digit after the last dash is the format version.
    public static let venueKeyMagic = "QRCHECKIN-VENUE-KEY-1"

    /// Reads and checks the master secret at `path` (a venue key file is refused).
    public static func load(from path: String) throws(SecretError) -> MasterSecret {
        switch try loadKeySource(from: path) {
        case .master(let secret): return secret
        case .venue(let key): throw .venueKeyNotMaster(path: path, venue: key.venue.rawValue)
        }
    }

    /// The first word of a report key file (docs/TOKEN.md, "Kiosk reports").
    public static let reportKeyMagic = "QRCHECKIN-REPORT-KEY-1"
    /// The report key's name inside `$CREDENTIALS_DIRECTORY` (`LoadCredential=report-key:…`).
    public static let reportKeyFileName = "report-key"

    /// What a key file holds: one of the three kinds docs/TOKEN.md names.
    public enum KeyFile: Sendable, Equatable {
        /// A master secret or a venue key: signs codes.
        case signing(SigningKeySource)
        /// A venue's report key: signs reports only.
        case report(ReportKey)
    }

    /// Reads a master secret or a venue key (docs/TOKEN.md, "Key files") from `path`; a report
    /// key is refused (it signs no code).
    public static func loadKeySource(from path: String) throws(SecretError) -> SigningKeySource {
        switch try loadKeyFile(from: path) {
        case .signing(let source): return source
        case .report(let key): throw .reportKeyNotSigningKey(path: path, venue: key.venue.rawValue)
        }
    }

    /// The report key of `venue` from the file at `path`: a report key file (of that venue), or
    /// a master secret or venue key it is derived from (then forgotten).
    public static func loadReportKey(from path: String, venue: VenueID, authenticator: any MessageAuthenticator)
        throws(SecretError) -> ReportKey {
        switch try loadKeyFile(from: path) {
        case .report(let key):
            guard key.venue == venue else {
                throw .wrongVenue(path: path, serves: key.venue.rawValue, requested: venue.rawValue)
            }
            return key
        case .signing(let source):
            do throws(SigningKeyError) {
                return try ReportKey(from: source, venue: venue, authenticator: authenticator)
            } catch {
                throw .wrongVenue(path: path, serves: error.serves.rawValue, requested: venue.rawValue)
            }
        }
    }

    /// Reads any key file (docs/TOKEN.md, "Key files") from `path`.
    ///
    /// Like ssh with private keys it refuses a file that group or others have any permission on,
    /// one owned by another user (other than root), and anything that is not a regular file.
    public static func loadKeyFile(from path: String) throws(SecretError) -> KeyFile {
        // The one shared reader: a FIFO or device is refused before it could block us.
        let file: RegularFile
        do {
            file = try RegularFile.open(path)
        } catch {
            if error.code == ENOENT { throw .missing(path: path) }
            if error.code == EACCES || error.code == EPERM { throw .permissionDenied(error) }
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw .notRegularFile(path: path, kind: RegularFile.kindName(info.st_mode & S_IFMT))
            }
            throw .unreadable(error)
        }
        let info = file.status
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw .wrongOwner(path: path, owner: UInt32(info.st_uid), target: linkTarget(of: path))
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .unsafePermissions(path: path, mode: UInt32(info.st_mode), target: linkTarget(of: path))
        }
        let bytes: [UInt8]
        do {
            bytes = try file.readAll(limit: 4096)
        } catch {
            if error.code == EFBIG { throw .tooLong(path: path) }
            if error.code == EACCES || error.code == EPERM { throw .permissionDenied(error) }
            throw .unreadable(error)
        }
        // The first word decides (docs/TOKEN.md, "Key files"); any case, so a mistyped magic
        // gets the venue key's error rather than "not hex".
        let firstWord = Array(bytes.drop(while: { [9, 10, 13, 32].contains($0) }).prefix(21).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 })
        if firstWord.starts(with: Array("QRCHECKIN-VENUE-KEY-".utf8)) {
            return .signing(.venue(try decodeVenueKey(bytes, path: path)))
        }
        if firstWord.starts(with: Array("QRCHECKIN-REPORT-KEY-".utf8)) {
            return .report(try decodeReportKey(bytes, path: path))
        }
        return .signing(.master(try decode(bytes, path: path)))
    }

    /// A report key file's content: `QRCHECKIN-REPORT-KEY-1 VENUE HEX` and a newline.
    public static func encode(_ key: ReportKey) -> [UInt8] {
        Array("\(reportKeyMagic) \(key.venue.rawValue) ".utf8) + hexDigits(key.bytes) + [UInt8(ascii: "\n")]
    }

    /// Writes a report key file (mode 0600), never replacing a file unless `overwrite`.
    public static func create(_ key: ReportKey, at path: String, overwrite: Bool) throws(SecretError) {
        try write(encode(key), to: path, overwrite: overwrite)
    }

    /// Parses a report key file's content; `path` only names the file in errors.
    public static func decodeReportKey(_ content: [UInt8], path: String) throws(SecretError) -> ReportKey {
        let (venue, bytes) = try decodeTagged(content, magic: reportKeyMagic, kind: "report key", path: path)
        return try! ReportKey(venue: venue, bytes: bytes)
    }

    /// `MAGIC VENUE HEX` on one line (a venue key's and a report key's shape).
    private static func decodeTagged(_ content: [UInt8], magic: String, kind: String, path: String) throws(SecretError) -> (VenueID, [UInt8]) {
        let isSpace: (UInt8) -> Bool = { [9, 10, 13, 32].contains($0) }
        let fields = content.split(whereSeparator: isSpace)
        guard let first = fields.first, String(decoding: first, as: UTF8.self) == magic else {
            throw .malformed(path: path, reason: "it is a \(kind) of an unknown format (this version reads \(magic))")
        }
        guard fields.count == 3 else {
            throw .malformed(path: path, reason: "a \(kind) is '\(magic) VENUE KEY' on one line")
        }
        let venue: VenueID
        do {
            venue = try VenueID(String(decoding: fields[1], as: UTF8.self))
        } catch {
            throw .malformed(path: path, reason: error.description)
        }
        guard let bytes = hexBytes(fields[2]), bytes.count == 32 else {
            throw .malformed(path: path, reason: "the key must be 64 hex digits")
        }
        return (venue, bytes)
    }

    /// A venue key file's content: `QRCHECKIN-VENUE-KEY-1 VENUE HEX` and a newline.
    public static func encode(_ key: VenueSigningKey) -> [UInt8] {
        var text = Array("\(venueKeyMagic) \(key.venue.rawValue) ".utf8)
        text += hexDigits(key.bytes)
        text.append(UInt8(ascii: "\n"))
        return text
    }

    /// Parses a venue key file's content; `path` only names the file in errors.
    public static func decodeVenueKey(_ content: [UInt8], path: String) throws(SecretError) -> VenueSigningKey {
        let (venue, bytes) = try decodeTagged(content, magic: venueKeyMagic, kind: "venue key", path: path)
        return try! VenueSigningKey(venue: venue, bytes: bytes)
    }

    /// Writes a venue key file (mode 0600), never replacing a file unless `overwrite`.
    public static func create(_ key: VenueSigningKey, at path: String, overwrite: Bool) throws(SecretError) {
        try write(encode(key), to: path, overwrite: overwrite)
    }

    /// The file content for `secret`: lower-case hex and a newline.
    public static func encode(_ secret: MasterSecret) -> [UInt8] {
        hexDigits(secret.bytes) + [UInt8(ascii: "\n")]
    }

    private static func hexDigits(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    private static func hexBytes(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        var index = text.startIndex
        while index < text.endIndex {
            guard let high = text[index].hexDigitValue, let low = text[index + 1].hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Parses file content; `path` only names the file in errors.
    public static func decode(_ content: [UInt8], path: String) throws(SecretError) -> MasterSecret {
        let isSpace: (UInt8) -> Bool = { [9, 10, 13, 32].contains($0) }
        let trimmed = content.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard !trimmed.isEmpty else { throw .empty(path: path) }
        var bytes = [UInt8]()
        var high: UInt8?
        for character in trimmed {
            guard let nibble = character.hexDigitValue else {
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
        try write(encode(secret), to: path, overwrite: overwrite)
    }

    private static func write(_ content: [UInt8], to path: String, overwrite: Bool) throws(SecretError) {
        do {
            try AtomicFile.write(content, to: path, mode: 0o600, replacing: overwrite)
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
        let found = try resolveKeySource(explicitPath: explicitPath, environment: environment, locations: locations,
                                         createIfMissing: createIfMissing)
        switch found.keys {
        case .master(let secret): return (secret, found.path)
        case .venue(let key): throw .venueKeyNotMaster(path: found.path, venue: key.venue.rawValue)
        }
    }

    /// Like `resolve`, but the file found may also be a venue key. `installed` (for `code` and
    /// `verify`, never for `run`) is the packaged service's secret: when this user may read it,
    /// it comes before the state directory's, so a developer secret `make run` once generated
    /// as root never shadows the one the installed daemon signs with.
    public static func resolveKeySource(explicitPath: String?, environment: [String: String], locations: DefaultLocations,
                                        createIfMissing: Bool, installed: InstalledService.Secret? = nil)
        throws(SecretError) -> (keys: SigningKeySource, path: String) {
        if let explicitPath {
            return (try loadKeySource(from: explicitPath), explicitPath)
        }
        if let credentials = environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty {
            let path = credentials + "/" + fileName
            do {
                return (try loadKeySource(from: path), path)
            } catch .missing {
                // The unit passes other credentials but not this one: fall through to the state directory.
            }
        }
        if case .readable(let path)? = installed {
            return (try loadKeySource(from: path), path)
        }
        let path = locations.secretFile
        do {
            return (try loadKeySource(from: path), path)
        } catch .missing(let missing) where !createIfMissing {
            if case .unreadable(let service)? = installed { throw .serviceSecretUnreadable(service: service, own: missing) }
            throw .missing(path: missing)
        } catch .missing(let missing) where createIfMissing {
            try makeDirectory(locations.stateDirectory)
            do {
                return (.master(try generate(at: missing, overwrite: false)), missing)
            } catch .alreadyExists {
                // Another process generated it between our load and create: use theirs.
                return (try loadKeySource(from: missing), missing)
            }
        }
    }

    /// Creates the state directory `path` with mode 0700 (missing parents get 0755, as with
    /// `mkdir -p`, so a private state directory does not hide its neighbours), or finds it; in
    /// both cases it must pass the directory-trust check (docs/STATE.md) before a secret goes
    /// in it.
    public static func makeDirectory(_ path: String) throws(SecretError) {
        do {
            _ = try DirectoryTrust().open(path, for: .publishing, creating: 0o700)
        } catch {
            throw .untrustedDirectory(error)
        }
    }

    /// Where a symbolic link at `path` finally points, or nil when `path` is not a link: advice
    /// must name the file whose mode changes (`chmod` follows links).
    private static func linkTarget(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
