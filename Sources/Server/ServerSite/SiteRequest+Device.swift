import ServerDomain

extension SiteRequest {
    /// The device of the request's cookie, or a new one with the `Set-Cookie` that gives it.
    func device(_ cookies: DeviceCookies) -> (id: DeviceID, setCookie: String?) {
        if let device = existingDevice(cookies) { return (device, nil) }
        let cookie = cookies.newCookie()
        // A fresh cookie always yields an id (44 hex digits hash to one).
        return (cookies.device(for: cookie)!, cookies.header(cookie, path: cookiePath, secure: http.secure))
    }

    /// The device of the request's cookie, if it has a good one.
    func existingDevice(_ cookies: DeviceCookies) -> DeviceID? {
        http.cookies[DeviceCookies.name].flatMap(cookies.device(for:))
    }

    /// The visitor's fields the visitor cookie holds, if any.
    var visitorCookie: Visitor? {
        http.cookies[VisitorCookie.name].flatMap(VisitorCookie.visitor)
    }
}
