import CheckInDomain
import CheckInJSON

/// The daemon's one-line JSON answer to a control request, given the state after it:
/// `{"ok":true,"state":{…}}`, or `{"ok":false,"code":…,"error":…,"state":{…}}` when the request
/// could not do what it asked (`code` is a stable word for scripts).
public enum ControlReply {
    /// The reply to `request` once it was handled; `document` is the serialised state document
    /// (the same text `current.json` holds when it was written for this state: serialised once).
    public static func text(for request: ControlRequest, state: CheckInState, document: String) -> String {
        if let turnedDown = refusal(for: request, settings: state.settings) {
            return refusal(turnedDown.code, turnedDown.message, document)
        }
        return "{\"ok\":true,\"state\":" + document + "}"
    }

    /// Why `request` is turned down under `settings` (a stable code and a message), or nil when
    /// it is done. Requests that ask for a code need refresh mode auto; a shake needs shake mode.
    public static func refusal(for request: ControlRequest, settings: OperatorSettings) -> (code: String, message: String)? {
        let asksForACode = request == .shake || request == .refreshNow
        if asksForACode && settings.refresh == .paused {
            return ("paused", "refresh mode is paused: no code is shown (qrcheckin ctl refresh auto resumes)")
        }
        if request == .shake && settings.shake == .off {
            return ("shake-off", "shake mode is off: shake ignored")
        }
        return nil
    }

    /// The reply to a request that could not be understood (no state).
    public static func error(_ message: String, code: String = "bad-request") -> String {
        JSONValue.object([("ok", .bool(false)), ("code", .string(code)), ("error", .string(message))]).serialized
    }

    private static func refusal(_ code: String, _ message: String, _ document: String) -> String {
        "{\"ok\":false,\"code\":" + JSONValue.string(code).serialized + ",\"error\":" + JSONValue.string(message).serialized
            + ",\"state\":" + document + "}"
    }
}
