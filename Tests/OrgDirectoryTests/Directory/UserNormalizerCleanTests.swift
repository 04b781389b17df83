import TestSupport
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
            ("王小明", "王小明"),
            ("José\u{00A0}García", "José García"),
            ("Zoë\u{2028}Smith", "Zoë Smith"),
            ("\u{3000}渡辺\u{3000}", "渡辺"),
            ("Åsa \u{200B}", "Åsa"),
            ("Ærø\u{0085}", "Ærø"),
            ("Émile  Zola", "Émile Zola"),
            ("e\u{0301}cole ", "e\u{0301}cole"),
            ("\u{0007}bell\u{0007}", "bell"),
            ("a\u{7F}", "a"),
            ("+1 425 555 0134", "+1 425 555 0134"),
        ] as [(String, String?)])
    func clean(input: String, expected: String?) {
        #expect(UserNormalizer().clean(input) == expected)
    }

    /// Characters around and beyond the fast path's edges: ASCII, spaces, controls, Unicode separators and
    /// format characters, combining marks, letters from several scripts, emoji, private use.
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", "-", "'", ".", " ", "\t", "\n", "\r", "\u{7F}", "\u{01}", "\u{85}", "\u{A0}", "\u{AD}",
        "é", "ß", "Ø", "\u{0301}", "\u{0308}", "ñ", "王", "渡", "한", "ع", "\u{05D0}", "\u{0E01}", "\u{1680}",
        "\u{2002}", "\u{200B}", "\u{200D}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        "\u{FEFF}", "\u{E000}", "\u{1F600}", "\u{1F1EB}", "€", "©", "\u{2060}", "\u{180E}",
    ]

    @Test("the fast path returns what cleaning through Foundation returns, for 20,000 random values")
    func fastPathAgreesWithFoundation() {
        var numbers = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        let normalizer = UserNormalizer()
        var fast = 0
        for _ in 0..<20_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(1 + next(8)) {
                // Mostly plain letters, as names are, so that both paths are taken often.
                scalars.append(next(3) == 0 ? Self.alphabet[next(Self.alphabet.count)] : Self.alphabet[next(2) + 15])
            }
            let value = String(scalars)
            if UserNormalizer.isAlreadyClean(value) { fast += 1 }
            #expect(
                normalizer.clean(value) == UserNormalizer.cleanedThroughFoundation(value),
                "\(value.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(fast > 1_000, "the fast path was taken \(fast) times")
    }
}
