import Testing

@testable import OrgDirectory

@Suite("Telephone links")
struct TelephoneLinkTests {
    @Test(
        "numbers become E.164 tel: links with extensions where they say enough",
        arguments: [
            ("+1 (425) 555-0134 x12", "tel:+14255550134;ext=12"), ("+49 (0)30 1234 ext. 5", "tel:+49301234;ext=5"),
            ("+49 (0)30 1234 EXT 5", "tel:+49301234;ext=5"), ("0049 30 1234", "tel:+49301234"),
            ("030 1234#7", "tel:0301234;ext=7"), ("X12 555 1234", "tel:125551234"),
            ("+1 425 555 0134", "tel:+14255550134"), ("12", nil), ("(0) 1234", "tel:01234"),
        ] as [(String, String?)])
    func link(written: String, uri: String?) {
        let link = TelephoneLink(written)
        #expect(link.uri == uri)
        #expect(link.written == written)
    }
}
