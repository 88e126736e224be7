import ServerDomain
import SharedCLI

/// A device as an operator names it: the whole id of an export, the 16 characters the table
/// shows (`DeviceID.shown`), or any prefix that begins exactly one device's id (`erase
/// --device`, `checkins --device`).
enum DeviceLookup {
    /// How many matches an ambiguous prefix lists.
    static let listed = 10

    /// The device whose id is `prefix`, or the one device with check-ins whose id begins with
    /// it; else exit 65: no device, or several (listed, each as far as tells it from the others).
    static func device(prefixed prefix: DeviceID, in ledger: any VisitLog) async throws(CommandError) -> DeviceID {
        let matches = try await ledgerCall { () async throws(LedgerError) in try await ledger.devices(prefixed: prefix.rawValue, limit: listed + 1) }
        if matches.contains(prefix) { return prefix }
        if matches.count == 1 { return matches[0] }
        guard !matches.isEmpty else {
            throw CommandError(.dataError, "no such device: no check-in of a device whose id begins \(prefix) (never recorded, purged or erased already)")
        }
        let shown = matches.prefix(listed).map { String($0.rawValue.prefix(max(DeviceID.shownLength, prefix.rawValue.count + 4))) }.sorted()
        let how = matches.count > listed ? "over \(listed)" : "\(matches.count)"
        throw CommandError(.dataError, "device \(prefix) is ambiguous: it begins the ids of \(how) devices "
                           + "(\(shown.joined(separator: ", "))\(matches.count > listed ? ", …" : "")); give more of the id")
    }
}
