import ServerDomain

/// How operators sign in to the console (`admin-auth`): with passwords, through the venue's
/// proxy, or both; what the proxy's headers are called and which of its groups give which role.
public struct ConsoleSignInPolicy: Sendable {
    /// Whether a password signs in (`admin-auth` has `password`).
    public var password: Bool
    /// How the proxy signs in, when it does (`admin-auth` has `proxy`).
    public var proxy: ProxySignInSettings?

    /// A policy of these parts; at least one way in.
    public init(password: Bool, proxy: ProxySignInSettings?) {
        precondition(password || proxy != nil, "the console needs a way to sign in")
        self.password = password
        self.proxy = proxy
    }

    /// Passwords only: the default.
    public static let passwordOnly = ConsoleSignInPolicy(password: true, proxy: nil)
}

/// What the venue's proxy sends when it signs an operator in (oauth2-proxy's
/// `--set-xauthrequest` headers by default) and how its groups become roles.
public struct ProxySignInSettings: Sendable, Equatable {
    /// The header naming the user (lower case): `x-auth-request-user`.
    public let userHeader: String
    /// The header listing the user's groups (lower case): `x-auth-request-groups`.
    public let groupsHeader: String
    /// The groups each role is given to (`proxy-role.ROLE`).
    public let roleGroups: [ConsoleRole: Set<String>]

    /// Settings of these headers (any case) and groups.
    public init(userHeader: String = Self.defaultUserHeader, groupsHeader: String = Self.defaultGroupsHeader,
                roleGroups: [ConsoleRole: Set<String>]) {
        self.userHeader = userHeader.lowercased()
        self.groupsHeader = groupsHeader.lowercased()
        self.roleGroups = roleGroups
    }

    /// oauth2-proxy's header names.
    public static let defaultUserHeader = "X-Auth-Request-User"
    public static let defaultGroupsHeader = "X-Auth-Request-Groups"

    /// The headers the HTTP adapter copies from a trusted proxy only.
    public var headerNames: [String] { [userHeader, groupsHeader] }

    /// The role of a user in `groups`: the highest whose groups meet them; nil when none does
    /// (the sign-in is refused with a page that says so).
    public func role(for groups: [String]) -> ConsoleRole? {
        ConsoleRole.allCases.sorted(by: >).first { role in
            guard let given = roleGroups[role] else { return false }
            return groups.contains(where: given.contains)
        }
    }

    /// The groups a header's value lists: separated by commas or spaces (oauth2-proxy joins
    /// them with commas; others with spaces), empty names dropped.
    public static func groups(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }
}
