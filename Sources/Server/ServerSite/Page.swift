
/// One HTML page of the site: the same head, style sheet and footer on every page, phone-sized,
/// no inline script or style (the Content-Security-Policy allows neither).
struct Page {
    /// The `<title>` and the class of `<body>` (receipt, refusal, form…).
    let title: String
    let kind: String
    /// The page's body, already escaped HTML.
    let content: String
    /// Where the language switch leads (nil: none, e.g. a page that answered a form).
    let switchTarget: String?

    /// The whole document.
    func render(words: ServerWords, assets: String) -> String {
        var footer = ""
        if let switchTarget {
            let (label, target) = words.languageSwitch
            footer = "<footer><a href=\"\(HTML.escape(switchTarget + "?lang=" + target.rawValue))\" lang=\"\(target.rawValue)\">\(HTML.escape(label))</a></footer>"
        }
        return """
            <!doctype html>
            <html lang="\(words.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(HTML.escape(title))</title>
            <link rel="stylesheet" href="\(HTML.escape(assets))/server.css">
            <script src="\(HTML.escape(assets))/receipt.js" defer></script>
            </head>
            <body class="\(kind)">
            <main>
            \(content)
            </main>
            \(footer)
            </body>
            </html>

            """
    }
}
