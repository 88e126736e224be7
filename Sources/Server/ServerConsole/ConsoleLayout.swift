import ServerWeb

/// The frame of every console page: the head (style sheet, the one script), a bar with the
/// pages the account's role may open, who is signed in and the sign-out form, the language
/// switch. Phone first: one column, the bar wraps.
struct ConsoleLayout {
    let request: ConsoleRequest

    func render(title: String, content: HTML) -> HTML {
        let words = request.words
        var bar: HTML = ""
        if let current = request.current {
            let links = ConsoleAccess.pages(for: current.account.role).map { page -> HTML in
                "<a href=\"\(request.link(page.path))\">\(Self.name(page, words))</a>"
            }.joined(separator: " ")
            bar = """
                <header><nav aria-label="\(words.console)">\(links)</nav>
                <form method="post" action="\(request.link(ConsolePage.logout.path))" class="signout">\(request.hiddenToken)
                <a class="who" href="\(request.link(ConsolePage.account.path))">\(current.account.name) · \(words.role(current.account.role))</a>
                <button type="submit">\(words.signOut)</button></form></header>
                """
        }
        let (label, target) = words.web.languageSwitch
        let switchLink = "\(request.http.path)?lang=\(target.rawValue)"
        return """
            <!doctype html>
            <html lang="\(words.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title) · \(words.console)</title>
            <link rel="stylesheet" href="\(ConsoleRoute.prefix)/_/console.css">
            <script src="\(ConsoleRoute.prefix)/_/console.js" defer></script>
            </head>
            <body>
            \(bar)
            <main>
            \(content)
            </main>
            <footer><a href="\(switchLink)" lang="\(target.rawValue)">\(label)</a></footer>
            </body>
            </html>

            """
    }

    /// A page's name in the bar.
    static func name(_ page: ConsolePage, _ words: ConsoleWords) -> String {
        switch page {
        case .dashboard: words.dashboard
        case .inside: words.inside
        case .checkin: words.staffCheckIn
        case .checkout: words.checkOut
        case .verify: words.secondStepTitle
        case .account: words.accountTitle
        case .log: words.log
        case .export: words.export
        case .erase: words.erase
        case .users: words.users
        case .tokens: words.tokens
        case .audit: words.audit
        case .kiosks: words.kiosks
        case .webhooks: words.webhooks
        case .login: words.signIn
        case .logout: words.signOut
        }
    }
}
