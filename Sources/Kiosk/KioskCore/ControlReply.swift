import SharedJSON

/// The daemon's one-line JSON answer to a control request, given the state on disk after it:
/// `{"ok":true,"state":{…}}`, or `{"ok":false,"code":…,"error":…,"state":{…}}` when the request
/// could not do what it asked (`code` is a stable word for scripts). A reply says ok only when
/// what was asked is done and on disk: saved, written, and (for `shake` and `refresh now`) a
/// new code issued.
public enum ControlReply {
    /// What became of a request once its writes were done: what the core knows, for the reply.
    public struct Outcome: Equatable, Sendable {
        /// The operator settings after the request.
        public var settings: OperatorSettings
        /// Whether the request issued a new code (a shake, `refresh now`).
        public var issued = false
        /// Why the daemon's state could not be saved, if the request's save failed.
        public var notSaved: String?
        /// Why the outputs do not show the request's result, if they do not.
        public var notWritten: String?
        /// Why no code can be issued now although refresh mode is auto, if none can.
        public var heldBack: String?
        /// Whether codes wait for the clock to synchronise (`require-clock-sync`).
        public var waitingForClock = false

        /// Creates an outcome.
        public init(settings: OperatorSettings, issued: Bool = false, notSaved: String? = nil, notWritten: String? = nil,
                    heldBack: String? = nil, waitingForClock: Bool = false) {
            self.settings = settings
            self.issued = issued
            self.notSaved = notSaved
            self.notWritten = notWritten
            self.heldBack = heldBack
            self.waitingForClock = waitingForClock
        }
    }

    /// The reply to `request` once it was handled; `document` is the serialised state document
    /// of what the files show (the same text `current.json` holds: serialised once).
    public static func text(for request: ControlRequest, outcome: Outcome, document: String) -> String {
        if let turnedDown = failure(for: request, outcome: outcome) {
            return refusal(turnedDown.code, turnedDown.message, document)
        }
        return "{\"ok\":true,\"state\":" + document + "}"
    }

    /// Why `request` did not do what it asked (a stable code and a message), or nil when it did.
    public static func failure(for request: ControlRequest, outcome: Outcome) -> (code: String, message: String)? {
        if let reason = outcome.notSaved {
            return ("not-saved", "cannot save the daemon's state (\(reason)): codes are paused until it can be saved "
                + "and an operator resumes them (qrcheckin ctl refresh auto)")
        }
        if let turnedDown = refusal(for: request, settings: outcome.settings) { return turnedDown }
        if request.asksForACode && !outcome.issued {
            if let reason = outcome.heldBack { return ("not-issued", "no new code: \(reason)") }
            if outcome.waitingForClock {
                return ("waiting", "no new code: waiting for the clock to synchronise (require-clock-sync = yes)")
            }
        }
        if let reason = outcome.notWritten {
            return ("not-written", "the outputs could not be written (\(reason)): they still show what the state says")
        }
        return nil
    }

    /// Why `request` is turned down under `settings` (a stable code and a message), or nil when
    /// it may be done. Requests that ask for a code need refresh mode auto; a shake needs shake mode.
    public static func refusal(for request: ControlRequest, settings: OperatorSettings) -> (code: String, message: String)? {
        if request.asksForACode && settings.refresh == .paused {
            return ("paused", "refresh mode is paused: no code is shown (qrcheckin ctl refresh auto resumes)")
        }
        if request == .shake && settings.shake == .off {
            return ("shake-off", "shake mode is off: shake ignored")
        }
        return nil
    }

    /// The reply to a request that could not be understood (no state).
    public static func error(_ message: String, code: String = "bad-request") -> String {
        ControlErrorReply.text(message, code: code)
    }

    private static func refusal(_ code: String, _ message: String, _ document: String) -> String {
        "{\"ok\":false,\"code\":" + JSONValue.string(code).serialized + ",\"error\":" + JSONValue.string(message).serialized
            + ",\"state\":" + document + "}"
    }
}

extension ControlRequest {
    /// Whether the request asks for a new code (a shake, `refresh now`).
    public var asksForACode: Bool { self == .shake || self == .refreshNow }
}
