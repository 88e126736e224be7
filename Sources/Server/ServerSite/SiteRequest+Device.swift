import ServerDomain

extension SiteRequest {
    /// The phone as the use case sees it: the device its cookie names, or a new one with the
    /// `Set-Cookie` that would give it (sent only if the use case admits the device).
    func scanDevice(_ cookies: DeviceCookies) -> (device: Scan.Device, newCookie: String?) {
        if let device = existingDevice(cookies) { return (.known(device), nil) }
        let (cookie, device) = cookies.newDevice()
        return (.new(device, network: http.clientKey), cookies.header(cookie, path: cookiePath, secure: http.secure))
    }

    /// The device of the request's cookie, if it has a good one.
    func existingDevice(_ cookies: DeviceCookies) -> DeviceID? {
        http.cookies[DeviceCookies.name].flatMap(cookies.device(for:))
    }

    /// The visitor's fields the visitor cookie holds, if it holds acceptable ones.
    var visitorCookie: Visitor? {
        http.cookies[VisitorCookie.name].flatMap(VisitorCookie.visitor)
    }
}
