import ServerDomain
import ServerWeb
import SharedDomain
import Testing

/// The HTML value: what it interpolates is escaped unless it is markup already, numbers and
/// ids go in as they are, and raw markup has one door.
struct HTMLTests {
    /// Every character that ends text or a quoted attribute value, and its entity.
    static let specials: [(String, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")]

    @Test(arguments: specials)
    func eachSpecialCharacterIsEscapedInText(character: String, entity: String) {
        let text = "a" + character + "b"
        let html: HTML = "<p>\(text)</p>"
        #expect(html.description == "<p>a\(entity)b</p>")
    }

    @Test(arguments: specials)
    func eachSpecialCharacterIsEscapedInAQuotedAttributeValue(character: String, entity: String) {
        let value = character + "x" + character
        let html: HTML = "<a href=\"\(value)\" title='\(value)'>"
        #expect(html.description == "<a href=\"\(entity)x\(entity)\" title='\(entity)x\(entity)'>")
    }

    @Test func anAttackerCannotLeaveAnAttributeOrOpenAnElement() {
        let name = "\"><script>alert('x')</script><a title=\""
        let html: HTML = "<input value=\"\(name)\"><span>\(name)</span>"
        #expect(!html.description.contains("<script>") && !html.description.contains("<a title"))
        #expect(html.description == "<input value=\"&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;a title=&quot;\">"
            + "<span>&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;a title=&quot;</span>")
    }

    @Test func textWithoutSpecialsAndNonASCIIPassesAsItIs() {
        let text = "대강당 · Café 😀 — 12가34나"
        let html: HTML = "<h1>\(text)</h1>"
        #expect(html.description == "<h1>\(text)</h1>")
        let mixed = "김 & 이 <b>"
        #expect(("\(mixed)" as HTML).description == "김 &amp; 이 &lt;b&gt;")
    }

    @Test func anEmptyStringAndAStringOfOnlySpecials() {
        #expect(("<i>\("")</i>" as HTML).description == "<i></i>")
        #expect(("\("&&<>")" as HTML).description == "&amp;&amp;&lt;&gt;")
    }

    @Test func htmlNestsUnescapedAndOnlyOnce() {
        let inner: HTML = "<b>\("a&b")</b>"
        let outer: HTML = "<p>\(inner)</p>"
        #expect(outer.description == "<p><b>a&amp;b</b></p>")
        let twice: HTML = "<div>\(outer)\(outer)</div>"
        #expect(twice.description == "<div><p><b>a&amp;b</b></p><p><b>a&amp;b</b></p></div>", "nesting never escapes again")
    }

    @Test func numbersAndIdsGoInAsTheyAre() throws {
        let venue = try VenueID("HALL-1.A")
        let html: HTML = "<td>\(42)</td><td>\(Int64(-7))</td><td>\(UInt8(255))</td><td>\(venue)</td><td>\(ReceiptID(123456789012345))</td>"
        #expect(html.description == "<td>42</td><td>-7</td><td>255</td><td>HALL-1.A</td><td>123456789012345</td>")
    }

    @Test func theRawDoorTakesMarkupAsItIs() {
        let icon = HTML(unescaped: "<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></svg>")
        #expect(icon.description == "<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></svg>")
        let page: HTML = "<p>\(icon)</p>"
        #expect(page.description == "<p><svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></svg></p>")
    }

    @Test func literalsAreMarkupAndValuesBuildUp() {
        var html: HTML = "<ul>"
        for item in ["a", "<b>"] { html += "<li>\(item)</li>" }
        html += "</ul>"
        #expect(html.description == "<ul><li>a</li><li>&lt;b&gt;</li></ul>")
        #expect((("<p>" as HTML) + "\("&")" + "</p>").description == "<p>&amp;</p>")
        #expect(HTML().isEmpty && !("x" as HTML).isEmpty)
        #expect(html.bytes == Array(html.description.utf8))
    }

    @Test func joinedPutsTheSeparatorBetween() {
        let items: [HTML] = ["<i>1</i>", "<i>2</i>", "<i>\("&")</i>"]
        #expect(items.joined(separator: " ").description == "<i>1</i> <i>2</i> <i>&amp;</i>")
        #expect(items.joined().description == "<i>1</i><i>2</i><i>&amp;</i>")
        #expect([HTML]().joined(separator: ",").isEmpty)
    }

    @Test func equalMarkupIsEqual() {
        let a: HTML = "<p>\("x")</p>"
        let b: HTML = "<p>x</p>"
        #expect(a == b)
        #expect(a != HTML(unescaped: "<p>y</p>"))
    }
}
