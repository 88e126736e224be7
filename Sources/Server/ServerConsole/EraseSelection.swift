import ServerDomain

/// Whom the erase page is asked about: a receipt number (`checkin`, with `only=yes` that
/// check-in alone) or a phone number, read whole or refused (`UnreadableField`). A field it
/// cannot read is never dropped: a mistyped receipt beside a phone number would have found the
/// phone's visits, and `only=1` every visit of the receipt's visitor instead of one.
struct EraseSelection: Equatable, Sendable {
    /// The receipt's number (`checkin`).
    var receipt: Int64?
    /// The phone number's digits.
    var phone: String?
    /// That check-in alone (`only=yes`, with a receipt).
    var only = false

    /// The selection `fields` (the query of a preview, the form of an erase) name; both empty:
    /// none (the empty form).
    init(_ fields: [String: String]) throws(UnreadableField) {
        let receiptText = fields["checkin"]?.trimmingSpaces ?? ""
        let phoneText = fields["phone"]?.trimmingSpaces ?? ""
        if !receiptText.isEmpty {
            guard let number = ReceiptID(receiptText) else { throw UnreadableField(name: "checkin", text: receiptText) }
            receipt = number.rawValue
        }
        if !phoneText.isEmpty {
            guard receipt == nil else { throw UnreadableField(name: "phone", text: phoneText) }
            guard let digits = Visitor.normalizedPhone(phoneText) else { throw UnreadableField(name: "phone", text: phoneText) }
            phone = digits
        }
        switch fields["only"] {
        case nil, "": break
        case "yes" where receipt != nil: only = true
        case let text?: throw UnreadableField(name: "only", text: text)
        }
    }
}
