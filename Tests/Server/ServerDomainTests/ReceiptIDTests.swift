import ServerDomain
import Testing

/// A receipt number is read once, by one rule, wherever it comes from (a receipt URL, the
/// console's search and erase forms): 1 to 18 ASCII digits.
struct ReceiptIDTests {
    @Test func digitsAreAReceiptNumber() {
        #expect(ReceiptID("210070222880084")?.rawValue == 210_070_222_880_084)
        #expect(ReceiptID("7")?.rawValue == 7)
        #expect(ReceiptID("007")?.rawValue == 7)
        #expect(ReceiptID("999999999999999999")?.rawValue == 999_999_999_999_999_999, "18 digits always fit an Int64")
        #expect(ReceiptID("0")?.rawValue == 0, "well-formed; the ledger finds nothing by it")
        #expect(ReceiptID("12"[...])?.rawValue == 12, "a substring of a path")
        #expect(ReceiptID(42).description == "42")
    }

    @Test(arguments: ["", "+1", "-1", "-0", " 1", "1 ", "1e3", "0x1F", "１２", "1234567890123456789", "12a", "١٢"])
    func anythingElseIsNot(text: String) async {
        #expect(ReceiptID(text) == nil, "\(text)")
    }
}
