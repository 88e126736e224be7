import ServerWeb


/// One HTML page of the site, in the one scaffold every visitor page shares: a card like a
/// pass, its top band the venue (logo, display name, accent), then the outcome's icon and the
/// page's one `<h1>`, then the page's own content; under the card the language switch.
/// Phone-sized, light and dark, no inline script or style (the Content-Security-Policy allows
/// neither). A new page builds a `Page` (or calls `Pages.card`) and gets all of it.
struct Page {
    /// The `<title>` and the class of `<body>` (receipt, refusal, form…).
    let title: String
    let kind: String
    /// The page's body under the heading.
    let content: HTML
    /// Where the language switch leads (a GET path, without `lang`): nil for none.
    let switchTarget: String?
    /// The venue the page is about, shown in the card's band (nil: the site's name).
    var venue: PageVenue? = nil
    /// The colour of the outcome: admitted (green), aged (neutral), refused (red)…
    var tone: Tone = .info
    /// The icon beside the heading.
    var icon: PageIcon = .form
    /// The page's one `<h1>` (nil: the title).
    var heading: String? = nil
    /// A language switch that is not a link (the visitor form re-posts its ticket).
    var switchHTML: HTML? = nil

    /// The colour of a page's outcome.
    enum Tone: String {
        /// Checked in, live: green.
        case admitted
        /// A receipt past its freshness: neutral grey.
        case aged
        /// Refused: red.
        case refused
        /// Wait and try again: amber-brown.
        case wait
        /// A form or information: blue.
        case info
    }

    /// The whole document.
    func render(words: ServerWords, assets: String) -> HTML {
        var footer: HTML = ""
        if let switchHTML {
            footer = "<footer class=\"switch\">\(switchHTML)</footer>"
        } else if let switchTarget {
            let (label, target) = words.languageSwitch
            let separator = switchTarget.contains("?") ? "&" : "?"
            footer = "<footer class=\"switch\"><a href=\"\(switchTarget + separator + "lang=" + target.rawValue)\" "
                + "lang=\"\(target.rawValue)\" hreflang=\"\(target.rawValue)\">\(Self.globe)\(label)</a></footer>"
        }
        let band: HTML
        if let venue {
            let logo: HTML = venue.logo.map { "<img class=\"logo\" src=\"\($0)\" alt=\"\">" } ?? ""
            let id: HTML = venue.name == venue.id ? "" : "<span class=\"venue-id\">\(venue.id)</span>"
            band = "<div class=\"band\">\(logo)<p class=\"venue\"><span class=\"venue-name\">\(venue.name)</span>\(id)</p></div>"
        } else {
            band = "<div class=\"band\"><p class=\"venue\"><span class=\"venue-name\">\(words.siteName)</span></p></div>"
        }
        let venueAttribute: HTML = venue.map { " data-venue=\"\($0.id)\"" } ?? ""
        return """
            <!doctype html>
            <html lang="\(words.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="referrer" content="no-referrer">
            <title>\(title)</title>
            <link rel="stylesheet" href="\(assets)/server.css">
            <script src="\(assets)/receipt.js" defer></script>
            </head>
            <body class="\(kind) tone-\(tone.rawValue)"\(venueAttribute)>
            <main class="card">
            \(band)
            <div class="outcome">\(icon.svg)<h1>\(heading ?? title)</h1></div>
            <div class="body">
            \(content)
            </div>
            </main>
            \(footer)
            </body>
            </html>

            """
    }

    /// A small globe before the language switch's label.
    static let globe: HTML = "<svg class=\"globe\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\"><circle cx=\"12\" cy=\"12\" r=\"9\" "
        + "fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/><path d=\"M3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18\" fill=\"none\" "
        + "stroke=\"currentColor\" stroke-width=\"2\"/></svg>"
}

/// The venue in a page's band: its display name, its id when that differs, and its logo's URL.
struct PageVenue {
    let name: String
    let id: String
    let logo: String?
}
