import ServerDomain
import ServerReports
import ServerWeb
import SharedDomain

/// A venue's occupancy today as an SVG line chart drawn on the server (no chart library, no
/// script, no inline style: the console's CSP allows none): the day's 24 hours on the x axis
/// (labelled every 3 hours, local time), people inside on the y axis (labelled ticks), the
/// capacity as a dashed line with its value, the curve up to now and a dot at now. A
/// `title` and `desc` name it for a screen reader (`role="img"`); the table beside it
/// (`hourTable`) is its text alternative. The numbers drawn are on the element too
/// (`data-boundaries`: inside every 5 minutes from midnight; `data-now`): what tests compare.
struct OccupancyChart {
    let curve: OccupancyCurve
    let name: String
    let words: ConsoleWords
    let zone: any LocalTimeZone

    // The drawing's frame, in the viewBox's units (the chart scales to its box's width).
    static let width = 320, height = 176
    static let left = 34, right = 310, top = 22, bottom = 142
    static let dayMinutes: Int64 = 1440

    /// The top of the y axis and its step: a round number above the curve and the capacity.
    static func scale(peak: Int, capacity: Int?) -> (top: Int, step: Int) {
        let highest = max(peak, capacity ?? 0, 4)
        var magnitude = 1
        while magnitude * 10 <= highest { magnitude *= 10 }
        for factor in [1, 2, 5, 10] {
            let step = factor * magnitude / 2 > 0 ? factor * magnitude / 2 : 1
            let top = (highest + step - 1) / step * step
            if top / step <= 4 { return (max(top, step), step) }
        }
        return (highest, max(1, highest / 4))
    }

    func x(_ offsetMilliseconds: Int64) -> Int {
        let minutes = min(max(0, offsetMilliseconds / 60_000), Self.dayMinutes)
        return Self.left + Int(minutes * Int64(Self.right - Self.left) / Self.dayMinutes)
    }

    func y(_ inside: Int, top: Int) -> Int {
        Self.bottom - min(inside, top) * (Self.bottom - Self.top) / max(1, top)
    }

    /// The `id` attributes' stem for this venue (ids are `[A-Z0-9_-]`: safe in an id).
    var stem: String { "curve-\(curve.venue.rawValue)" }

    var svg: HTML {
        let points = curve.points
        let peak = curve.peak
        let (top, step) = Self.scale(peak: peak.inside, capacity: curve.capacity)
        var grid: HTML = ""
        for value in stride(from: 0, through: top, by: step) {
            let row = y(value, top: top)
            grid += "<line x1=\"\(Self.left)\" y1=\"\(row)\" x2=\"\(Self.right)\" y2=\"\(row)\" class=\"\(value == 0 ? "axis" : "grid")\"/>"
            grid += "<text x=\"\(Self.left - 4)\" y=\"\(row + 4)\" class=\"tick y\">\(value)</text>"
        }
        for hour in stride(from: 0, through: 24, by: 3) {
            let column = x(Int64(hour) * 3_600_000)
            grid += "<line x1=\"\(column)\" y1=\"\(Self.bottom)\" x2=\"\(column)\" y2=\"\(Self.bottom + 4)\" class=\"axis\"/>"
            grid += "<text x=\"\(column)\" y=\"\(Self.bottom + 16)\" class=\"tick x\">\(hour)</text>"
        }
        grid += "<line x1=\"\(Self.left)\" y1=\"\(Self.top)\" x2=\"\(Self.left)\" y2=\"\(Self.bottom)\" class=\"axis\"/>"
        grid += "<text x=\"\(Self.left)\" y=\"\(Self.top - 8)\" class=\"label y\">\(words.chartPeople)</text>"
        grid += "<text x=\"\(Self.right)\" y=\"\(Self.height - 2)\" class=\"label x\">\(words.chartHours)</text>"
        var capacityLine: HTML = ""
        if let capacity = curve.capacity {
            let row = y(capacity, top: top)
            capacityLine = "<line x1=\"\(Self.left)\" y1=\"\(row)\" x2=\"\(Self.right)\" y2=\"\(row)\" class=\"capacity\"/>"
                + "<text x=\"\(Self.right)\" y=\"\(row - 4)\" class=\"label capacity\">\(words.capacityOf(capacity))</text>"
        }
        let line = points.map { "\(x($0.offset)),\(y($0.inside, top: top))" }.joined(separator: " ")
        let area = "\(x(0)),\(Self.bottom) " + line + " \(x(points.last?.offset ?? 0)),\(Self.bottom)"
        let last = points.last ?? (0, 0)
        let description = words.curveSummary(peak: peak.inside, at: LocalTime(peak.at, in: zone).minute, now: curve.insideNow, capacity: curve.capacity)
        return """
            <svg class="chart occupancy" viewBox="0 0 \(Self.width) \(Self.height)" role="img" aria-labelledby="\(stem)-title \(stem)-desc" \
            data-step-minutes="\(curve.bucketMilliseconds / 60_000)" data-boundaries="\(curve.boundaries.map(String.init).joined(separator: " "))" \
            data-now="\(curve.insideNow)">\
            <title id="\(stem)-title">\(words.curveTitle(name))</title><desc id="\(stem)-desc">\(description)</desc>\
            \(grid)\(capacityLine)<polygon points="\(area)" class="area"/><polyline points="\(line)" class="curve"/>\
            <circle cx="\(x(last.offset))" cy="\(y(last.inside, top: top))" r="3.5" class="now"/></svg>
            """
    }

    /// The curve as a table, an hour a row up to now: inside at the hour's start, the most
    /// inside during it, entries and exits (the chart's text alternative), folded away.
    var hourTable: HTML {
        let perHour = Int(3_600_000 / curve.bucketMilliseconds)
        let points = curve.points
        var rows: HTML = ""
        var hour = 0
        while hour * perHour < curve.entries.count {
            let buckets = (hour * perHour)..<min((hour + 1) * perHour, curve.entries.count)
            let startValue = curve.boundaries.indices.contains(hour * perHour) ? curve.boundaries[hour * perHour] : curve.insideNow
            let hourStart = Int64(hour) * 3_600_000, hourEnd = hourStart + 3_600_000
            let most = points.filter { $0.offset >= hourStart && $0.offset <= hourEnd }.map(\.inside).max() ?? startValue
            let entries = buckets.reduce(0) { $0 + curve.entries[$1] }, exits = buckets.reduce(0) { $0 + curve.exits[$1] }
            let label = LocalTime(WallTime(milliseconds: curve.start.milliseconds + hourStart), in: zone).minute
            rows += "<tr><th scope=\"row\">\(label)</th><td>\(startValue)</td><td>\(most)</td><td>\(entries)</td><td>\(exits)</td></tr>"
            hour += 1
        }
        return """
            <details><summary>\(words.curveTable)</summary><div class="scroll"><table class="hours">\
            <thead><tr><th scope="col">\(words.hour)</th><th scope="col">\(words.insideAtStart)</th><th scope="col">\(words.mostInside)</th>\
            <th scope="col">\(words.entries)</th><th scope="col">\(words.exits)</th></tr></thead><tbody>\(rows)</tbody></table></div></details>
            """
    }
}
