/// A control request whose reply waits for the save and the write it caused, and what became
/// of them: the reply says what the files show, so it is written only once both are done.
struct PendingControlReply {
    /// The request being answered.
    let request: ControlRequest
    /// Whether it issued a new code (a shake, `refresh now`).
    var issued = false
    /// Why its save failed, if it did.
    var notSaved: String?
    /// Why its write failed, if it did.
    var notWritten: String?

    /// The reply line, about `model` and what the files on disk show (`onDisk`, whose
    /// `current.json` text is `document`).
    func text(model: CheckInViewModel, onDisk: CheckInState?, document: String) -> String {
        var outcome = ControlReply.Outcome(settings: model.state.settings, issued: issued, notSaved: notSaved, notWritten: notWritten,
                                           heldBack: model.holdingCodesBack, waitingForClock: model.state.phase == .waitingForClock)
        // A change the files do not show (the write failed now or earlier, or was not tried).
        if request.input != nil, outcome.notWritten == nil,
           onDisk.map({ $0.phase != model.state.phase || $0.settings != model.state.settings }) ?? true {
            outcome.notWritten = model.state.health.reason ?? "nothing is on disk yet"
        }
        return ControlReply.text(for: request, outcome: outcome, document: document)
    }
}
