import Glibc
import SharedDomain
import SharedSystem

/// Where the daemons of many venues on one host are, and how clients find one by its venue id.
///
/// The layout is the template unit's (`qrcheckin@VENUE.service`): a venue's output directory is
/// the default output directory plus `/VENUE`, its state directory the default state directory
/// plus `/VENUE`:
///
/// | what   | root, system units          | other users                                        |
/// |--------|-----------------------------|----------------------------------------------------|
/// | output | `/run/qrcheckin/VENUE`      | `$XDG_RUNTIME_DIR/qrcheckin/VENUE`, else `/tmp/qrcheckin-UID/VENUE` |
/// | state  | `/var/lib/qrcheckin/VENUE`  | `$XDG_STATE_HOME/qrcheckin/VENUE`, else `~/.local/state/qrcheckin/VENUE` |
///
/// So the default daemon's output directory is also the *root* of the venues' directories,
/// as the web page reads it (`?venue=V` fetches `V/current.json`). A venue whose directory is
/// missing may still be the default daemon's (its `current.json` names the venue).
public struct VenueDirectories: Sendable, Equatable {
    /// One place that may hold venues: an output root and, when known, its state root.
    public struct Root: Sendable, Equatable {
        /// The default daemon's output directory; venues are its subdirectories.
        public let output: String
        /// The state directories' parent: a venue with a state directory but no output
        /// directory is known and down (systemd removes a stopped unit's runtime directory,
        /// never its state directory).
        public let state: String?

        /// A root.
        public init(output: String, state: String?) {
            self.output = output
            self.state = state
        }
    }

    /// A daemon found (or expected) on this host.
    public struct Entry: Sendable, Equatable {
        /// Its output directory.
        public let outputDirectory: String
        /// Its venue as the directory name says, or nil for a root's own daemon (its
        /// `current.json` says).
        public let venueHint: String?

        /// An entry.
        public init(outputDirectory: String, venueHint: String?) {
            self.outputDirectory = outputDirectory
            self.venueHint = venueHint
        }
    }

    /// The roots searched, in order.
    public let roots: [Root]
    /// Whether `path` holds anything (a file, socket or dangling symlink).
    private let exists: @Sendable (String) -> Bool
    /// The names in a directory (empty when it cannot be read).
    private let list: @Sendable (String) -> [String]

    /// Roots to search, with injectable file-system lookups for tests.
    public init(roots: [Root], exists: @escaping @Sendable (String) -> Bool = DefaultLocations.pathExists,
                list: @escaping @Sendable (String) -> [String] = VenueDirectories.names) {
        var unique: [Root] = []
        for root in roots where !unique.contains(where: { $0.output == root.output }) { unique.append(root) }
        self.roots = unique
        self.exists = exists
        self.list = list
    }

    public static func == (lhs: VenueDirectories, rhs: VenueDirectories) -> Bool { lhs.roots == rhs.roots }

    /// Whether `directory` holds a daemon's files (`current.json` or `control.sock`).
    public func holdsDaemon(_ directory: String) -> Bool {
        exists(directory + "/current.json") || exists(directory + "/control.sock")
    }

    /// Venue `venue`'s output directory: in each root in order, `ROOT/VENUE` when it holds a
    /// daemon, else `ROOT` itself when its daemon serves `venue` (`venueOf` reads its
    /// `current.json`). Nil when no root has it.
    public func find(_ venue: VenueID, venueOf: (String) -> String?) -> String? {
        for root in roots {
            let directory = root.output + "/" + venue.rawValue
            if holdsDaemon(directory) { return directory }
            if holdsDaemon(root.output), venueOf(root.output) == venue.rawValue { return root.output }
        }
        return nil
    }

    /// Where venue `venue` would be if it ran: the first root's `ROOT/VENUE` (what "not
    /// running" names, and what a kiosk waits on).
    public func expected(_ venue: VenueID) -> String {
        (roots.first?.output ?? DefaultLocations.systemOutputDirectory) + "/" + venue.rawValue
    }

    /// Every daemon on the host: each root's own daemon, each venue subdirectory holding a
    /// daemon, and each venue with a state directory but no daemon files (down). Sorted by
    /// root, then venue id; a root's own daemon first.
    public func all() -> [Entry] {
        var entries: [Entry] = []
        for root in roots {
            if holdsDaemon(root.output) { entries.append(Entry(outputDirectory: root.output, venueHint: nil)) }
            var venues = Set(list(root.output).filter { Self.isVenue($0) && holdsDaemon(root.output + "/" + $0) })
            if let state = root.state { venues.formUnion(list(state).filter(Self.isVenue)) }
            for venue in venues.sorted() {
                entries.append(Entry(outputDirectory: root.output + "/" + venue, venueHint: venue))
            }
        }
        return entries
    }

    /// Whether a directory name is a venue id (so `settings`, `secret` and temporaries are not).
    public static func isVenue(_ name: String) -> Bool {
        (try? VenueID(name)) != nil
    }

    /// The names in `directory` (not `.` or `..`); empty when it cannot be read.
    public static func names(_ directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
