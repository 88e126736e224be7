import ServerDomain
import SharedCLI
import SharedDomain

/// `--venue`, `--from`, `--until` and `--device` as a query: the selection every reading
/// command shares. Times take the forms of `qrcheckin code --at` (one parser, `TimeArgument`).
enum CheckInQueryOptions {
    /// The query the options name; `now` is what `--from now` means.
    static func query(_ arguments: ParsedArguments, now: WallTime) throws(CommandError) -> CheckInQuery {
        var query = CheckInQuery()
        if let text = arguments["venue"] { query.venue = try ServerConfiguration.venue(text, .flag("venue")) }
        for (name, keyPath) in [("from", \CheckInQuery.from), ("until", \CheckInQuery.until)] {
            guard let text = arguments[name] else { continue }
            do throws(TimeArgument.Invalid) {
                query[keyPath: keyPath] = WallTime(seconds: try TimeArgument.moment(text, now: now.seconds))
            } catch {
                throw .usage("--\(name) must be \(error.reason)")
            }
        }
        if let text = arguments["device"] {
            guard let device = DeviceID(text) else {
                throw .usage("--device must be a device id as the export shows it (1-64 of 0-9 a-z A-Z - _), got '\(text)'")
            }
            query.device = device
        }
        return query
    }
}
