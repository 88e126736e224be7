/// How far a commit goes before a check-in is acknowledged (`PRAGMA synchronous` under WAL).
public enum SQLiteDurability: String, Sendable, CaseIterable {
    /// Every commit waits for fsync: a check-in that got its receipt survives a power cut.
    case full
    /// A commit is in the WAL file when acknowledged: it survives the server's crash (kill -9),
    /// a power cut may lose the last moments. Several times faster per commit.
    case normal
}
