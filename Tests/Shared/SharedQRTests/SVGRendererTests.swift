import SharedQR
import Testing

@Suite struct SVGRendererTests {
    /// Rows: `##.` / `.#.` / `###`.
    let matrix = QRMatrix(version: 1, size: 3, modules: [true, true, false, false, true, false, true, true, true])

    @Test func oneRectanglePerHorizontalRunOnAnIntegerGrid() {
        let svg = SVGRenderer(scale: 2, margin: 1).render(matrix)
        #expect(svg.contains(##"width="10" height="10" viewBox="0 0 5 5" shape-rendering="crispEdges""##))
        #expect(svg.contains(##"<rect width="5" height="5" fill="#FFFFFF"/>"##))
        #expect(svg.contains(##"<path fill="#000000" d="M1 1h2v1h-2zM2 2h1v1h-1zM1 3h3v1h-3z"/>"##))
        #expect(svg.ranges(of: "<path").count == 1)
    }

    @Test func coloursAndTransparency() {
        let svg = SVGRenderer(scale: 1, margin: 1, foreground: .init(rgb: "#1A237E", alpha: 128),
                              background: .init(rgb: "#FFFFFF", alpha: 0)).render(matrix)
        #expect(svg.contains(##"<path fill="#1A237E" fill-opacity="0.502""##))
        #expect(!svg.contains("<rect"), "a transparent background is no rectangle at all")
    }
}
