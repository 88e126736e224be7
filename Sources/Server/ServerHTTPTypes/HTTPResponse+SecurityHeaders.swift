extension HTTPResponse {
    /// The strict headers every response carries, the site's pages and the adapter's own
    /// refusals alike: no script or style but the site's own, no framing, no sniffing, no
    /// referrer, never cached.
    public static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ]
}
