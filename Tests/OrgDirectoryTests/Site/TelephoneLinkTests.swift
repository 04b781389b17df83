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

    @Test(
        "the byte path for ASCII numbers gives what the Character path gives",
        arguments: [
            "+1 (425) 555-0134 x12", "+49 (0)30 1234 ext. 5", "+49 (0)30 1234 EXT 5", "0049 30 1234", "030 1234#7",
            "X12 555 1234", "12", "(0) 1234", "  +44 (0)(0)20 7946 0958", "+(0)", "00123", "0012345", "ext 12",
            "555 1234 Ext.", "#", "", "   ", "+1 425\r\n555 0134 x 9", "555-0100 x12 x13", "+31 (0)20 (0)555",
        ])
    func asciiPathMatchesCharacterPath(written: String) throws {
        let ascii = try #require(TelephoneLink.parseASCII(written))
        let characters = TelephoneLink.parseCharacters(written)
        #expect(ascii.uri == characters.uri)
        #expect(ascii.searchDigits == characters.searchDigits)
    }

    @Test("numbers with other scripts or combining marks take the Character path")
    func nonASCIIUsesCharacterPath() {
        #expect(TelephoneLink.parseASCII("+49 30 1234\u{301}") == nil)
        #expect(TelephoneLink("٠١٢٣ 555 1234").uri == "tel:5551234")
    }
}
