import Foundation
import Testing

@testable import OrgDirectory

/// Every hostile value through every output context: nothing may execute, open markup or escape a path.
@Suite("Site escaping matrix")
struct SiteEscapingTests {
    @Test("HTML escaping leaves no markup-significant character", arguments: SiteFixtures.hostile)
    func html(value: String) {
        let escaped = SiteEscaping.html(value)
        for forbidden in ["<", ">", "\"", "'", "\u{202E}"] { #expect(!escaped.contains(forbidden)) }
        #expect(
            !escaped.replacingOccurrences(of: "&amp;", with: "").replacingOccurrences(of: "&lt;", with: "")
                .replacingOccurrences(of: "&gt;", with: "").replacingOccurrences(of: "&quot;", with: "")
                .replacingOccurrences(of: "&#39;", with: "").contains("&"))
    }

    @Test("a Markdown-escaped value renders through cmark-gfm as the same plain text", arguments: SiteFixtures.hostile)
    func markdownRoundTrip(value: String) throws {
        let markdown = "- Value: " + SiteEscaping.markdown(value) + "\n"
        let html = try #require(Markdown.html(from: markdown, rewritingMarkdownLinks: true))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<a "), "no link may appear: \(html)")
        #expect(!html.contains("<em>") && !html.contains("<strong>") && !html.contains("<code>"))
        // cmark escapes like SiteEscaping.html except that it leaves apostrophes alone.
        let expected = SiteEscaping.html(SiteEscaping.displayText(value)).replacingOccurrences(of: "&#39;", with: "'")
        #expect(html == "<ul>\n<li>Value: \(expected)</li>\n</ul>\n")
    }

    @Test("cmark never passes raw HTML or javascript: links, even unescaped")
    func cmarkSafeMode() throws {
        let html = try #require(
            Markdown.html(
                from: "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>\n",
                rewritingMarkdownLinks: false))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("javascript:"))
    }

    @Test("relative .md links point to the HTML twins; other links stay")
    func markdownLinks() throws {
        let html = try #require(
            Markdown.html(from: "[a](b-1.md) [c](https://x.example/d.md) [e](f.vcf)\n", rewritingMarkdownLinks: true))
        #expect(html.contains("href=\"b-1.html\""))
        #expect(html.contains("href=\"https://x.example/d.md\""))
        #expect(html.contains("href=\"f.vcf\""))
    }

    @Test("table, autolink, strikethrough and tagfilter extensions are active")
    func extensions() throws {
        let html = try #require(
            Markdown.html(
                from: "| a | b |\n|---|---|\n| 1 | 2 |\n\nhttps://example.com ~~gone~~\n", rewritingMarkdownLinks: false
            ))
        #expect(html.contains("<table>"))
        #expect(html.contains("<a href=\"https://example.com\">"))
        #expect(html.contains("<del>gone</del>"))
        #expect(Markdown.missingExtensions.isEmpty)
    }

    @Test(
        "JavaScript data escapes <, >, &, quotes, line breaks and U+2028/2029",
        arguments: SiteFixtures.hostile + [
            "line\u{2028}separator\u{2029}paragraph", "</script><!--", "tab\there\u{0}nul",
        ])
    func javascriptData(value: String) throws {
        let literal = SiteEscaping.jsonString(value)
        for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}", "\n", "\u{0}"] {
            #expect(!literal.contains(forbidden))
        }
        let decoded = try JSONDecoder().decode(String.self, from: Data(literal.utf8))
        #expect(decoded == value)
    }

    @Test("vCard text escapes \\ , ; and line breaks and folds lines at 75 octets", arguments: SiteFixtures.hostile)
    func vcard(value: String) throws {
        let person = SitePerson(
            user: SiteFixtures.hostileUser(value, number: 1), index: 0, slug: "x", letter: "x", departmentFile: nil)
        let card = String(decoding: VCard.cardBytes(for: person), as: UTF8.self)
        #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
        #expect(card.hasSuffix("END:VCARD\r\n"))
        for line in card.components(separatedBy: "\r\n").dropLast() {
            #expect(line.utf8.count <= 75, "too long: \(line)")
            #expect(!line.contains("\n") && !line.contains("\r"))
        }
        let unfolded = card.replacingOccurrences(of: "\r\n ", with: "")
        let fn = try #require(unfolded.components(separatedBy: "\r\n").first { $0.hasPrefix("FN:") })
        // Bidi overrides are dropped: an address book would show the name reordered.
        let expected = String(String.UnicodeScalarView(value.unicodeScalars.filter { !SiteEscaping.isBidiControl($0) }))
        #expect(VCardParsing.unescape(String(fn.dropFirst(3))) == expected)
    }

    @Test(
        "vCard escaping table",
        arguments: [
            ("a,b", "a\\,b"), ("a;b", "a\\;b"), ("a\\b", "a\\\\b"), ("a\nb", "a\\nb"), ("a\r\nb", "a\\nb"),
            ("Jürgen", "Jürgen"),
        ])
    func vcardText(input: String, expected: String) {
        #expect(VCard.text(input) == expected)
    }

    @Test("vCard folding never splits a UTF-8 sequence")
    func vcardFolding() {
        let folded = VCard.fold("FN:" + String(repeating: "ü", count: 100))
        for line in folded.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75)
            #expect(!line.unicodeScalars.contains("\u{FFFD}"), "a split UTF-8 sequence decodes as U+FFFD")
        }
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == "FN:" + String(repeating: "ü", count: 100))
    }

    @Test(
        "CSV fields are quoted and formula-looking cells neutralized",
        arguments: [
            ("=1+2", "\"'=1+2\""), ("+1 425 555 0134", "\"'+1 425 555 0134\""), ("-2", "\"'-2\""),
            ("@SUM(A1)", "\"'@SUM(A1)\""),
            ("a\"b", "\"a\"\"b\""), ("a,b\r\nc", "\"a,b\r\nc\""), ("Jürgen", "\"Jürgen\""), ("", "\"\""),
        ])
    func csvField(input: String, expected: String) {
        #expect(SiteExports.csvField(input) == expected)
    }

    @Test(
        "slugs of hostile names are short, lowercase ASCII and never a path",
        arguments: SiteFixtures.hostile + [
            "", "   ", "\u{0}", "/", "..", "CON", "王小明", "Иван Петров", "Νίκος",
        ])
    func slug(value: String) {
        let slug = Slug.make(for: User(id: "id-" + value, userPrincipalName: value, displayName: value))
        #expect(!slug.isEmpty && slug.utf8.count <= Slug.maximumNameLength + 1 + Slug.hashLength)
        #expect(slug.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        #expect(!slug.hasPrefix("-") && !slug.contains("--"))
    }
}

/// A minimal vCard reader for tests: undoes TEXT escaping.
enum VCardParsing {
    static func unescape(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
