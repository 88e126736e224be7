import KioskCore
import KioskViews
import SharedCLI
import SharedJSON
import SharedText

/// A control-socket reply: `{"ok":…,"error":…,"state":{…}}` as text and parsed.
struct JSONValueReply {
    /// The reply line as received.
    let text: String
    /// The parsed reply, nil if the daemon sent something that is not JSON.
    let value: JSONValue?

    init(text: String) {
        self.text = text
        value = try? JSONParser.parse(text)
    }

    /// Whether the daemon accepted the request.
    var ok: Bool { value?["ok"]?.bool == true }
    /// The daemon's error message, if it refused.
    var error: String { value?["error"]?.string ?? "unexpected reply: \(text)" }

    /// The state after the request, if the reply carries one.
    var state: StateDocument? {
        guard let state = value?["state"] else { return nil }
        return try? StateDocument(value: state)
    }

    /// A one-line human summary of the state, in the words `status` and the kiosk use:
    /// `shake on | auto refresh; Safe number 12현34규 (seq 0); Health ok`.
    func summary(_ language: Language) -> String {
        guard let state else { return text }
        let words = Vocabulary(language)
        var parts = [words.modes(shake: state.shake, refresh: state.refresh)]
        if let safeNumber = state.safeNumber, let sequence = state.sequence {
            parts.append("\(words.safeNumberLabel) \(safeNumber) (seq \(sequence))")
        }
        if state.phase == .paused { parts.append(words.pausedTitle) }
        if state.phase == .waiting { parts.append(words.waitingTitle) }
        parts.append("\(words.healthLabel) \(words.health(state.health, reason: state.reason))")
        if state.clockUnsynchronized {
            parts.append(words.warning(words.clockUnsynchronized(maxErrorSeconds: state.clock?.maxErrorSeconds)))
        }
        return parts.joined(separator: "; ")
    }
}
