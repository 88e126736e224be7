import ServerDomain
import SharedDomain
import SharedJSON
import SharedText

/// An event's body as receivers get it (Standard Webhooks' shape: `type`, `timestamp`, `data`),
/// in the exports' words: `id` (the receipt's check-in id), `venue`, `time`, `method`,
/// `exit_kind`, `stay_seconds`, and `occupancy` (the venue's open visits when the event was first
/// sent), `reason` (a
/// refusal's). `name` and `phone` only for an endpoint added with `--personal`; never a device.
/// A `kiosk` event names the `kiosk`, its `state` (`ok`, `late`, `offline`) and `problem_codes`
/// (`kiosks --json`'s `problemCodes`: `paused`, `clock`, …).
public enum WebhookPayload {
    /// The JSON bytes of `event`.
    public static func body(_ event: WebhookEvent) -> [UInt8] {
        var data: [(String, JSONValue)] = []
        if let id = event.checkIn { data.append(("id", .number(id))) }
        data.append(("venue", event.venue.map { .string($0.rawValue) } ?? .null))
        data.append(("time", .string(UTCTime.iso8601(event.time.milliseconds / 1000))))
        if let method = event.method { data.append(("method", .string(method))) }
        if let kind = event.exitKind { data.append(("exit_kind", .string(kind.rawValue))) }
        if let stay = event.staySeconds { data.append(("stay_seconds", .number(stay))) }
        if let occupancy = event.occupancy { data.append(("occupancy", .number(Int64(occupancy)))) }
        if let reason = event.reason { data.append(("reason", .string(reason))) }
        if let kiosk = event.kiosk {
            data.append(("kiosk", .string(kiosk.rawValue)))
            data.append(("state", event.kioskState.map { .string($0.rawValue) } ?? .null))
            data.append(("problem_codes", .array(event.problems.map(JSONValue.string))))
        }
        if event.visitorName != nil || event.visitorPhone != nil {
            data.append(("name", event.visitorName.map(JSONValue.string) ?? .null))
            data.append(("phone", event.visitorPhone.map(JSONValue.string) ?? .null))
        }
        return JSONValue.object([
            ("type", .string(event.type.rawValue)),
            ("timestamp", .string(UTCTime.iso8601(event.time.milliseconds / 1000))),
            ("data", .object(data)),
        ]).serializedBytes
    }
}
