import Foundation
import TestSupport
import Testing

@testable import OrgDirectory

/// The built-in person page's HTML made without cmark (`PersonPage.markdownHTMLBytes()`, `PlainHTML`) against
/// cmark-gfm rendering the same Markdown: byte for byte wherever the fast path answers, on thousands of made-up
/// values built from the pieces Markdown, HTML and cmark-gfm's extensions react to.
@Suite("Person page HTML without cmark")
struct PersonPageMarkdownHTMLTests {
    /// Pieces of made-up values: Markdown and HTML specials, autolink triggers, entities, list and heading
    /// starts, spaces of every kind, combining marks, joiners, emoji, right-to-left and CJK text.
    static let pieces: [String] = [
        "a", "Zoë", "王", "محمد", "x", "42", " ", "  ", "&", "<", ">", "\"", "'", "@", ":", ".", "www.", "WWW.",
        "http://", "https://x.example", "mailto:", "*", "_", "**", "__", "[", "]", "(", ")", "![", "!", "#", "|", "~",
        "~~", "`", "\\", "-", "+", "=", "1.", "2)", "%", "%20", "$", "^", "/", ";", "?", ",", "{", "}", "\u{A0}",
        "\u{2003}", "\u{200D}", "\u{200E}", "\u{FEFF}", "\u{301}", "\u{202E}", "👍🏽", "→", "«", "»", "\t", "\n",
        "\u{2028}", "&amp;", "&#39;", "&lt;", "a@b.c", "x@y", "<b>", "<script>", "javascript:", "---", "===", "| a |",
        "[^1]", "<http://x>", "\u{0}", "\u{7F}", "\u{85}",
    ]

    /// Pieces of made-up link targets: what cmark writes as it is, and what it encodes, empties or splits on.
    static let hrefPieces: [String] = [
        "a", "Z", "7", "-", ".", "_", "~", "/", "../", "+", "@", "%", "%41", "!", "$", "*", "=", ":", "mailto:",
        "tel:+1", "javascript:", "JavaScript:", "data:", ".md", ".html", "x.md", " ", "&", "'", "\"", "(", ")", "<",
        ">", "é", "?", "#", ";", ",", "[", "]", "\\", "`", "^", "|", "{", "}",
    ]

    /// A value of up to `count - 1` pieces (possibly empty).
    static func value(from pieces: [String], _ numbers: inout SeededNumbers, count: Int = 6) -> String {
        (0..<numbers.next(count)).map { _ in pieces[numbers.next(pieces.count)] }.joined()
    }

    /// What cmark-gfm makes of `markdown`, `.md` links rewritten as the person page has them.
    static func cmark(_ markdown: [UInt8]) throws -> [UInt8] {
        try #require(Markdown.html(fromUTF8: markdown, rewritingMarkdownLinks: true))
    }

    /// Markdown bytes: `before`, the value escaped as `person.md` escapes it, `after`.
    static func markdown(_ before: String, _ value: String, _ after: String) -> [UInt8] {
        var page = PageBytes()
        page.raw(before)
        page.markdown(value)
        page.raw(after)
        return page.bytes
    }

    /// One place a value goes in `person.md`, with the HTML the fast path writes for it.
    struct Context: Sendable, CustomTestStringConvertible {
        let name: String
        /// Values for this place: link targets are made of `hrefPieces` and taken as they are (no display cleanup).
        var isTarget = false
        let markdown: @Sendable (String) -> [UInt8]
        let html: @Sendable (String, inout PlainHTML) -> Void
        var testDescription: String { name }
    }

    static let contexts: [Context] = [
        Context(name: "heading", markdown: { markdown("# ", $0, "\n") }) { value, html in
            html.text("<h1>")
            html.plain(value)
            html.text("</h1>\n")
        },
        Context(name: "bold job title", markdown: { markdown("**", $0, "**\n") }) { value, html in
            html.text("<p><strong>")
            html.plain(value)
            html.text("</strong></p>\n")
        },
        Context(name: "list item", markdown: { markdown("- Office: ", $0, "\n") }) { value, html in
            var list = PlainHTML.List()
            list.plainItem(in: &html, "Office: ", value)
            list.close(in: &html)
        },
        Context(name: "link text", markdown: { markdown("- Mail: [", $0, "](mailto\\:a\\@b.c)\n") }) { value, html in
            var list = PlainHTML.List()
            list.item(in: &html, "Mail: ")
            html.link(value, "mailto:a@b.c")
            list.end(in: &html)
            list.close(in: &html)
        },
        Context(name: "link target", isTarget: true, markdown: { markdown("[x](", $0, ")\n") }) { value, html in
            html.text("<p>")
            html.link("x", value)
            html.text("</p>\n")
        },
        Context(name: "history line", markdown: { markdown("- **", $0, "**: a → b, [2026-01-02](x.md)\n") }) {
            value, html in
            var list = PlainHTML.List()
            list.item(in: &html)
            html.text("<strong>")
            html.plain(value)
            html.text("</strong>: a → b, ")
            html.link("2026-01-02", "x.md")
            list.end(in: &html)
            list.close(in: &html)
        },
    ]

    @Test("in every place a value goes, the fast path writes cmark's bytes or steps aside", arguments: contexts)
    func everyContext(_ context: Context) throws {
        var numbers = SeededNumbers(seed: 11)
        var answered = 0
        let rounds = 4_000
        for _ in 0..<rounds {
            let made = Self.value(from: context.isTarget ? Self.hrefPieces : Self.pieces, &numbers)
            // Person pages hold display-safe values (`PersonPage.init` cleans them), as does this.
            let value = context.isTarget ? made : SiteEscaping.displayText(made)
            var html = PlainHTML()
            context.html(value, &html)
            guard html.isPlain else { continue }
            answered += 1
            let expected = try Self.cmark(context.markdown(value))
            #expect(
                html.bytes == expected,
                "\(context.name) of \(value.debugDescription): \(String(decoding: html.bytes, as: UTF8.self).debugDescription) but cmark wrote \(String(decoding: expected, as: UTF8.self).debugDescription)"
            )
        }
        // A path that always steps aside would pass the loop above: it must answer for a good share of values.
        #expect(answered > rounds / 10, "answered \(answered) of \(rounds)")
    }

    @Test(
        "values cmark may read otherwise step aside",
        arguments: [
            "", " leading", "trailing ", "two  spaces", "no\u{A0}break", "em\u{2003}space", "line\u{2028}separator",
            "mail a@b.c in text", "control \u{1}", "private \u{E000}",
        ])
    func notPlain(_ value: String) {
        var html = PlainHTML()
        html.plain(value)
        #expect(!html.isPlain)
    }

    @Test(
        "link targets cmark would encode or empty step aside",
        arguments: ["javascript:alert(1)", "data:text/html,x", "a b", "x\"y", "it's", "a&b", "é.md", "x(1).md", "<x>"])
    func notPlainTarget(_ href: String) {
        var html = PlainHTML()
        html.link("x", href)
        #expect(!html.isPlain)
    }

    @Test("whole pages: generated people with managers, reports, extra fields and history match cmark's")
    func wholePages() throws {
        var numbers = SeededNumbers(seed: 5)
        func maybe(_ value: String) -> String? { value.isEmpty ? nil : value }
        // Mostly ordinary values, a third made of pieces: pages of both kinds, and ordinary pages with one odd value.
        func field(_ ordinary: String) -> String {
            numbers.next(3) == 0 ? Self.value(from: Self.pieces, &numbers, count: 4) : ordinary
        }
        let old = (0..<600).map { number in
            User(
                id: "person-\(number)", userPrincipalName: "p\(number)@contoso.com",
                displayName: field("Person \(number) Example"), givenName: maybe(field("Person")),
                surname: maybe(field("Example")), mail: maybe(field("person.\(number)@contoso.com")),
                businessPhones: number % 3 == 0 ? [] : [field("+1 425 555 0\(100 + number % 900)")],
                mobilePhone: number % 4 == 0 ? nil : maybe(field("(0)170 \(number)")),
                jobTitle: maybe(field("Engineer")), department: maybe(field("Platform")),
                officeLocation: maybe(field("Berlin 4.\(number % 20)")), companyName: maybe(field("Contoso")),
                manager: number == 0 ? nil : ManagerReference(id: "person-\(number / 4)", displayName: nil),
                extra: number % 5 == 0 ? ["extensionAttribute1": field("Cost centre 12")] : [:])
        }
        var new = old
        for number in stride(from: 0, to: new.count, by: 7) {
            new[number].officeLocation = maybe(field("Lisbon"))
            new[number].department = maybe(field("Operations"))
        }
        let history = ChangeHistory(entries: [
            DiffReport(
                old: SiteFixtures.side("2026-03-01", people: old.count),
                new: SiteFixtures.side("2026-03-02", people: new.count), diff: DirectoryDiff.between(old, new))
        ])
        let site = SiteHistory(history, hiding: [])
        let directory = SiteDirectory(users: new, hiding: [])
        let stamp = SiteStamp(Date(timeIntervalSince1970: 1_780_000_000))
        var answered = 0
        var withHistory = 0
        for person in directory.people {
            let page = PersonPage(person, stamp: stamp, links: PersonLinks(of: person, in: directory), history: site)
            guard let html = page.markdownHTMLBytes() else { continue }
            answered += 1
            if !page.history.isEmpty { withHistory += 1 }
            let expected = try Self.cmark(page.markdownBytes())
            #expect(
                html == expected,
                "\(person.user.id): \(String(decoding: html, as: UTF8.self)) but cmark wrote \(String(decoding: expected, as: UTF8.self))"
            )
        }
        #expect(
            answered > directory.people.count / 20 && withHistory > 5,
            "answered \(answered), \(withHistory) with history")
    }
}
