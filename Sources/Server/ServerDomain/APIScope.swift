/// What an API token may do. Ordered: a scope includes every scope below it, as roles do
/// (`ConsoleRole`), so a door system's `checkin` token also reads the counts it admits by.
public enum APIScope: String, CaseIterable, Comparable, Hashable, Sendable {
    /// Read the visitor log, the venues' counts and who is inside.
    case read
    /// Also record staff check-ins and check-outs.
    case checkin

    public static func < (lhs: APIScope, rhs: APIScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
