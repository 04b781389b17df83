import TestSupport
import Testing

@testable import OrgDirectory

/// The folding table search relies on; `SiteBrowserTests` checks search.js folds the same strings alike.
@Suite("Site search folding")
struct SiteFoldingTests {
    /// Input, base variant, expanded variant.
    static let table: [(String, String, String)] = [
        ("Jürgen", "jurgen", "juergen"),
        ("JUERGEN", "juergen", "juergen"),
        ("Ju\u{0308}rgen", "jurgen", "juergen"),
        ("Straße", "strasse", "strasse"),
        ("Søren Østergaard", "soren ostergaard", "soeren oestergaard"),
        ("Łukasz Wałęsa", "lukasz walesa", "lukasz walesa"),
        ("Ærø", "aero", "aeroe"),
        ("Ångström", "angstrom", "aangstroem"),
        ("José Nguyễn", "jose nguyen", "jose nguyen"),
        ("Œuvre Þór Ðorđe", "oeuvre thor dorde", "oeuvre thor dorde"),
        ("İstanbul Işık", "istanbul isik", "istanbul isik"),
        ("Иван Йорк Ёлкин", "иван иорк елкин", "иван иорк елкин"),
        ("Παπαδόπουλος", "παπαδοπουλοσ", "παπαδοπουλοσ"),
        ("王小明", "王小明", "王小明"),
        ("مُحَمَّد", "محمد", "محمد"),
        ("O'Brien", "o'brien", "o'brien"),
        ("+1 (425) 555-0134", "+1 (425) 555-0134", "+1 (425) 555-0134"),
    ]

    @Test("both variants fold as the table says", arguments: table)
    func fold(input: String, base: String, expanded: String) {
        let folded = SearchFolding.fold(input)
        #expect(folded.base == base)
        #expect(folded.expanded == expanded)
    }

    @Test("index tokens hold both variants, apostrophe words joined and split")
    func indexTokens() {
        #expect(SearchFolding.indexTokens("Jürgen Müller") == ["juergen", "jurgen", "mueller", "muller"])
        #expect(SearchFolding.indexTokens("Aoife O'Brien") == ["aoife", "brien", "o", "obrien"])
        #expect(SearchFolding.indexTokens("Platform-Engineering / R&D") == ["d", "engineering", "platform", "r"])
        #expect(SearchFolding.indexTokens("👩‍👩‍👧 <script>") == ["script"])
    }

    @Test(
        "ASCII values are tokenized from their bytes exactly as the general folding does",
        arguments: [
            "Ada Lovelace", "O'Brien-Smith", "ada.lovelace42@contoso.com", "  Sales & Marketing (EMEA) ", "", "'",
            "a'b'c d''e", "R2-D2 r2 D2", "UPPER lower MiXeD 0042", "tab\tnew\nline", "~!@#$%^&*()_+`{}|:<>?",
            "John O'Neil O'Neil", "x",
        ])
    func asciiTokens(text: String) {
        #expect(SearchFolding.asciiIndexTokens(text) == SearchFolding.generalIndexTokens(text))
    }

    @Test("values beyond ASCII take the general folding")
    func nonASCIITokens() {
        #expect(SearchFolding.asciiIndexTokens("Jürgen") == nil)
        #expect(SearchFolding.indexTokens("Jürgen Müller") == ["juergen", "jurgen", "mueller", "muller"])
    }

    @Test("an id's hash is written as the leading hex digits of all sixteen, zeros kept")
    func hexPrefix() {
        for value: UInt64 in [0, 1, 0xabc, 0x0123_4567_89ab_cdef, .max, Slug.idHashValue("some-id")] {
            let hex = String(value, radix: 16)
            let padded = String(repeating: "0", count: 16 - hex.count) + hex
            for length in [0, 1, 6, 16] {
                #expect(HexDigits.string(value, count: length) == String(padded.prefix(length)))
                var bytes: [UInt8] = []
                HexDigits.append(value, count: length, to: &bytes)
                #expect(bytes == Array(padded.prefix(length).utf8))
            }
        }
    }

    @Test("query words join apostrophes and keep both variants")
    func queryWords() {
        let words = SearchFolding.queryWords("o'brien Jürgen")
        #expect(words.map(\.base) == ["obrien", "jurgen"])
        #expect(words.map(\.expanded) == ["obrien", "juergen"])
    }
}

@Suite("Site slugs")
struct SiteSlugTests {
    @Test("a slug is the folded name plus a hash of the id, the same on every run")
    func stable() {
        let user = User(
            id: "0a1b2c3d-0000-4000-8000-000000000001", userPrincipalName: "j@x", displayName: "Jürgen Müller")
        #expect(Slug.make(for: user) == "jurgen-muller-" + Slug.idHash(user.id, length: 6))
        // Pinned: changing the hash or folding would move every page and break links people saved.
        #expect(Slug.idHash("0a1b2c3d-0000-4000-8000-000000000001", length: 6) == "5a6d54")
    }

    @Test("Cyrillic and Greek names get readable ASCII slugs; others fall back to person")
    func transliteration() {
        #expect(Slug.namePart("Иван Петров") == "ivan-petrov")
        #expect(Slug.namePart("Νίκος Παπαδόπουλος") == "nikos-papadopoulos")
        #expect(Slug.namePart("王小明") == "person")
        #expect(Slug.namePart("../../etc/passwd") == "etc-passwd")
    }

    @Test("long names are cut at a word boundary")
    func truncation() {
        let name = Slug.namePart(String(repeating: "abcdefgh ", count: 40))
        #expect(name.utf8.count <= Slug.maximumNameLength)
        #expect(name.hasSuffix("abcdefgh"))
    }

    @Test("namesakes get distinct slugs whatever the order, and the rest keep their ordinary slug")
    func uniqueness() {
        var users = (0..<500).map { User(id: "id-\($0)", userPrincipalName: "u\($0)@x", displayName: "Anna Schmidt") }
        users.append(User(id: "same", userPrincipalName: "a@x", displayName: "Twin"))
        users.append(User(id: "same", userPrincipalName: "b@x", displayName: "Twin"))
        let slugs = Slug.assign(users)
        #expect(Set(slugs).count == users.count)
        let reversed = Slug.assign(users.reversed())
        #expect(Set(reversed) == Set(slugs))
        let lone = User(id: "lone", userPrincipalName: "l@x", displayName: "Lone Person")
        #expect(Slug.assign(users + [lone]).last == Slug.make(for: lone))
    }

    /// Letters that fold, combining marks that may follow a space, apostrophes, scripts without case, Hangul jamo
    /// that compose with each other, a canonical singleton (Å sign), final and medial sigma, spaces.
    static let wordAlphabet: [Unicode.Scalar] = [
        "a", "Z", "0", "-", "'", "\u{2019}", " ", " ", " ", "é", "ß", "Ø", "ä", "Ü", "å", "İ", "ı", "Σ", "ς", "σ",
        "\u{0301}", "\u{0308}", "\u{05B4}", "王", "한", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{212B}", "ǅ",
        "ﬁ", "ـ", "ع", "\u{00A0}", "\u{1F600}",
    ]

    @Test("folding and tokenizing a value word by word gives what the whole value gives, for 20,000 random values")
    func spaceSeparatedPartsFoldAsTheWhole() {
        var numbers = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        var folds = FoldCache()  // one cache for every value, as a directory pass keeps it
        var split = 0
        for _ in 0..<20_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(1 + next(12)) { scalars.append(Self.wordAlphabet[next(Self.wordAlphabet.count)]) }
            let text = String(scalars)
            #expect(folds.base(text) == SearchFolding.fold(text).base, "\(Array(text.unicodeScalars))")
            guard let parts = SearchFolding.spaceSeparatedParts(ofNonASCII: text) else { continue }
            split += 1
            #expect(parts.joined(separator: " ") == text)
            let scalarParts = text.unicodeScalars.split(separator: " ", omittingEmptySubsequences: false)
            #expect(parts.map { Array($0.unicodeScalars) } == scalarParts.map { Array($0) }, "split as the scalars are")
            let wordTokens = Set(parts.flatMap { SearchFolding.indexTokens($0) }).sorted()
            #expect(wordTokens == SearchFolding.indexTokens(text), "\(Array(text.unicodeScalars))")
        }
        #expect(split > 5_000, "only \(split) values were split")
    }

    @Test("the fold cache keys values by their bytes: composed and decomposed spellings fold alike, each once")
    func foldCacheKeysByBytes() {
        let composed = "M\u{00FC}ller"
        let decomposed = "Mu\u{0308}ller"
        #expect(composed == decomposed, "one text to String")
        #expect(UTF8Key(composed) != UTF8Key(decomposed), "two keys by bytes")
        #expect(UTF8Key(composed) == UTF8Key(String(decoding: Array(composed.utf8), as: UTF8.self)))
        var folds = FoldCache()
        for text in [composed, decomposed, composed, decomposed] {
            #expect(folds.base(text) == SearchFolding.fold(composed).base)
        }
    }

    @Test("only values beyond ASCII with a space are split, at plain spaces only, empty parts kept")
    func spaceSeparatedParts() {
        #expect(SearchFolding.spaceSeparatedParts(ofNonASCII: "Ada Lovelace") == nil)
        #expect(SearchFolding.spaceSeparatedParts(ofNonASCII: "Jürgen") == nil)
        #expect(SearchFolding.spaceSeparatedParts(ofNonASCII: "Jürgen\u{00A0}Müller") == nil)
        #expect(SearchFolding.spaceSeparatedParts(ofNonASCII: "Jürgen  Müller") == ["Jürgen", "", "Müller"])
        #expect(SearchFolding.spaceSeparatedParts(ofNonASCII: "a \u{0301}b") == ["a", "\u{0301}b"])
        #expect(SearchFolding.spaceSeparatedParts(ofNonASCII: " Jürgen ") == ["", "Jürgen", ""])
    }
}
