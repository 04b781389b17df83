import Foundation
import Testing

@testable import OrgDirectory

/// The compiled templates' HTML escaping against swift-mustache's own, value by value.
@Suite("Mustache-compatible escaping")
struct MustacheEscapingTests {
    /// Renders `{{name}}` through Mustache with `value`.
    static func mustache(_ value: String, with templates: TemplateSet) throws -> String {
        try templates.render("probe", ["name": value])
    }

    static func probeTemplates() throws -> TemplateSet {
        let folder = try SiteTemplateTests.folder(["probe.mustache": "{{name}}"])
        defer { try? FileManager.default.removeItem(at: folder) }
        return try TemplateSet(overriding: folder)
    }

    @Test(
        "escapes the five HTML specials exactly where Mustache does",
        arguments: [
            "", "plain", "<>&\"'", "a<b", "<\u{301}", "\"\u{301}x", "&\u{200D}", "'\u{FE0F}", "\u{600}<",
            "\u{600}\u{301}&", "\u{915}\u{94D}<", "<\u{93E}", "\r\n<", "🇩🇪<🇩🇪", "👍🏽&", "&👍🏽", "한<글", "é<é", "<<<", "&amp;",
        ])
    func matchesMustache(value: String) throws {
        #expect(MustacheEscaping.html(value) == (try Self.mustache(value, with: Self.probeTemplates())))
    }

    @Test("random mixes of specials, marks and scripts escape as Mustache escapes them")
    func randomMixes() throws {
        let templates = try Self.probeTemplates()
        let pieces: [String] = [
            "<", ">", "&", "\"", "'", "a", " ", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{600}", "\u{93E}", "\u{94D}",
            "\u{915}", "é", "王", "🇩", "👍", "🏽", "\u{1100}", "\u{1161}", "\r", "\n", "ا",
        ]
        var generator = DirectoryDiffFileTests.Random(state: 7)
        for _ in 0..<2_000 {
            let length = Int.random(in: 1...8, using: &generator)
            let value = (0..<length).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let scalars = value.unicodeScalars.map { String($0.value, radix: 16) }
            #expect(MustacheEscaping.html(value) == (try Self.mustache(value, with: templates)), "\(scalars)")
        }
    }
}
