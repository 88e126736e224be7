import CheckInDomain
import CheckInJSON

/// The daemon's one-line JSON answer to a control request, given the state after it:
/// `{"ok":true,"state":{…}}`, or `{"ok":false,"code":…,"error":…,"state":{…}}` when the request
/// could not do what it asked (`code` is a stable word for scripts).
public enum ControlReply {
    /// The reply to `request` once the view model has handled it.
    public static func text(for request: ControlRequest, state: CheckInState, document: StateDocument) -> String {
        let asksForACode = request == .shake || request == .refreshNow
        if asksForACode && state.settings.refresh == .paused {
            return refusal("paused", "refresh mode is paused: no code is shown (qrcheckin ctl refresh auto resumes)", document)
        }
        if request == .shake && state.settings.shake == .off {
            return refusal("shake-off", "shake mode is off: shake ignored", document)
        }
        return JSONValue.object([("ok", .bool(true)), ("state", document.json)]).serialized
    }

    private static func refusal(_ code: String, _ message: String, _ document: StateDocument) -> String {
        JSONValue.object([("ok", .bool(false)), ("code", .string(code)), ("error", .string(message)),
                          ("state", document.json)]).serialized
    }
}
