import Testing

@testable import OrgDirectory

/// `clean` has a one-pass fast path for values that need no change; these cases sit on both sides of it.
@Suite("User normalizer: cleaning values")
struct UserNormalizerCleanTests {
    @Test(
        "blank becomes nil, whitespace is trimmed and collapsed, clean values come back unchanged",
        arguments: [
            ("Ada Lovelace", "Ada Lovelace"),
            ("x", "x"),
            ("", nil),
            (" ", nil),
            ("\t\n", nil),
            (" Ada", "Ada"),
            ("Ada ", "Ada"),
            ("Ada  Lovelace", "Ada Lovelace"),
            ("Ada\tLovelace", "Ada Lovelace"),
            ("Ada\nLovelace", "Ada Lovelace"),
            ("Ada\u{00A0}Lovelace", "Ada Lovelace"),
            ("\u{00A0}Ada\u{00A0}", "Ada"),
            ("Jürgen Müller", "Jürgen Müller"),
            ("\u{0007}bell\u{0007}", "bell"),
            ("a\u{7F}", "a"),
            ("+1 425 555 0134", "+1 425 555 0134"),
        ] as [(String, String?)])
    func clean(input: String, expected: String?) {
        #expect(UserNormalizer().clean(input) == expected)
    }
}
