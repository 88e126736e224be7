import ServerWeb

/// The icon at the top of a page's card, one per kind of outcome: inline SVG (a text glyph
/// like ✓ depends on the phone's fonts and reads as text to a screen reader). Decorative: the
/// heading beside it says the same in words, so each is `aria-hidden`.
public enum PageIcon: String, Sendable {
    /// Checked in, live.
    case admitted
    /// Checked in before (a duplicate): admitted, with a repeat mark.
    case again
    /// A receipt older than its freshness: a clock.
    case aged
    /// Refused: the code or request is not good.
    case refused
    /// Wait: too many tries, a code not valid yet, the ledger busy.
    case wait
    /// A form to fill in (the safe number, the visitor's details).
    case form
    /// Leaving: a checked-out visit (for the check-out page).
    case leaving
    /// Full: the venue takes nobody more now (for the capacity page).
    case full

    /// The `<svg>` element, sized by CSS (`.icon`).
    public var svg: HTML {
        "<svg class=\"icon\" viewBox=\"0 0 48 48\" aria-hidden=\"true\" focusable=\"false\">\(shape)</svg>"
    }

    private var shape: HTML {
        let ring: HTML = "<circle cx=\"24\" cy=\"24\" r=\"21\" fill=\"currentColor\"/>"
        // The marks take their colour from the style sheet (`.icon .mark`): white on light pages, dark on dark ones.
        let stroke: HTML = "class=\"mark\" fill=\"none\" stroke-width=\"4.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\""
        switch self {
        case .admitted:
            return ring + "<path d=\"M14 25l7 7 13-15\" \(stroke)/>"
        case .again:
            return ring + "<path d=\"M14 25l7 7 13-15\" \(stroke)/><path d=\"M33 36a14 14 0 0 1-18-2\" class=\"mark\" fill=\"none\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>"
        case .aged:
            return ring + "<path d=\"M24 12v12l8 5\" \(stroke)/>"
        case .refused:
            return ring + "<path d=\"M16 16l16 16M32 16L16 32\" \(stroke)/>"
        case .wait:
            return ring + "<path d=\"M17 13h14M17 35h14M18 13c0 7 12 9 12 11s-12 4-12 11M30 13c0 7-12 9-12 11s12 4 12 11\" \(stroke)/>"
        case .form:
            return ring + "<path d=\"M15 17h18M15 24h18M15 31h10\" \(stroke)/>"
        case .leaving:
            return ring + "<path d=\"M20 15h-5v18h5M23 24h12M30 18l6 6-6 6\" \(stroke)/>"
        case .full:
            return ring + "<path d=\"M14 24h20\" \(stroke)/>"
        }
    }
}
