/// Draws a QR matrix as a compact SVG: one background rectangle and one path of the dark
/// modules, one `M x y h w v1 h-w z` rectangle per horizontal run, all on an integer module
/// grid (`viewBox` in modules, `crispEdges`), so it is sharp at any size.
public struct SVGRenderer: Sendable {
    /// A fill: `#RRGGBB` and its alpha (255 opaque, 0 transparent).
    public struct Fill: Equatable, Sendable {
        public var rgb: String
        public var alpha: UInt8
        /// Creates a fill.
        public init(rgb: String, alpha: UInt8 = 255) {
            (self.rgb, self.alpha) = (rgb, alpha)
        }
    }

    public let scale: Int
    public let margin: Int
    public let foreground: Fill
    public let background: Fill

    /// Creates a renderer: `scale` pixels a module for the nominal size, `margin` modules of quiet zone.
    public init(scale: Int, margin: Int, foreground: Fill = Fill(rgb: "#000000"), background: Fill = Fill(rgb: "#FFFFFF")) {
        (self.scale, self.margin, self.foreground, self.background) = (scale, margin, foreground, background)
    }

    /// The SVG document: an XML declaration, then `element(_:)`.
    public func render(_ matrix: QRMatrix) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element(matrix)
    }

    /// The `<svg>` element alone, for a page to hold inline (an HTML page takes no XML
    /// declaration): the same bytes `render` writes after its first line.
    public func element(_ matrix: QRMatrix) -> String {
        let span = matrix.size + 2 * margin
        let pixels = span * scale
        var path = ""
        for row in 0..<matrix.size {
            var column = 0
            while column < matrix.size {
                guard matrix[row, column] else { column += 1; continue }
                let start = column
                while column < matrix.size && matrix[row, column] { column += 1 }
                let run = column - start
                path += "M\(start + margin) \(row + margin)h\(run)v1h-\(run)z"
            }
        }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(span) \(span)" shape-rendering="crispEdges">

            """
        if background.alpha > 0 {
            svg += "<rect width=\"\(span)\" height=\"\(span)\" fill=\"\(background.rgb)\"\(Self.opacity(background))/>\n"
        }
        svg += "<path fill=\"\(foreground.rgb)\"\(Self.opacity(foreground)) d=\"\(path)\"/>\n</svg>\n"
        return svg
    }

    private static func opacity(_ fill: Fill) -> String {
        guard fill.alpha < 255 else { return "" }
        // Three decimals are finer than the 256 alpha steps.
        let thousandths = (Int(fill.alpha) * 1000 + 127) / 255
        let text = "0." + String(repeating: "0", count: 3 - String(thousandths).count) + String(thousandths)
        return " fill-opacity=\"\(thousandths == 1000 ? "1" : text)\""
    }
}
