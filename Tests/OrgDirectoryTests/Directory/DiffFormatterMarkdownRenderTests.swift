#if canImport(CCMarkGFM)
    import Foundation
    import Testing

    @testable import OrgDirectory

    /// The Markdown diff through the site's own cmark-gfm setup: hostile values must come out as text.
    @Suite("Diff formatter Markdown through cmark-gfm")
    struct DiffFormatterMarkdownRenderTests {
        @Test("hostile values render as text: no link, image, script or raw HTML element")
        func hostileValuesStayText() throws {
            let markdown = try DiffFormatter(format: .markdown).render(DiffFormatterTests.report())
            let html = try #require(Markdown.html(from: markdown, rewritingMarkdownLinks: false))
            #expect(!html.contains("<script"))
            #expect(!html.contains("<img"))
            #expect(!html.contains("href=\"javascript"))
            #expect(html.contains("&lt;script&gt;"))
            #expect(html.contains("[x](javascript:alert(1))"))
            #expect(html.contains("<li>Department: Sales → Operations <em>(moved)</em></li>"))
        }
    }
#endif
