import ServerHTTPTypes

extension HTTPRequest {
    /// Whether a browser says this request comes from another site's page (a cross-site form
    /// post): `Sec-Fetch-Site: cross-site`, or, from a browser without it, an `Origin` whose
    /// host is not the one the request is for. A request without either (curl, a script) is
    /// no browser's and carries no visitor's or operator's cookies. The one rule of the
    /// visitor pages' forms and of every console POST.
    public var isCrossSite: Bool {
        if let site = headers["sec-fetch-site"] { return site == "cross-site" }
        guard let origin = headers["origin"] else { return false }
        guard origin != "null", let host = headers["host"] else { return true }
        let authority = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        return authority?.lowercased() != host.lowercased()
    }
}
