import CCMarkGFM
import Foundation

/// Markdown to HTML through cmark-gfm; the one file in orgdir that calls cmark.
///
/// Directory data is hostile by assumption, so cmark always runs in its default safe mode (raw HTML is
/// dropped, `javascript:`-style links are emptied) and the tagfilter extension is active as a second net.
enum Markdown {
    /// The GFM extensions every page uses, in attach order.
    static let extensionNames = ["table", "autolink", "strikethrough", "tagfilter"]

    /// Never `CMARK_OPT_UNSAFE`: pages carry directory values.
    private static let options: Int32 = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8

    /// The registered extensions, looked up once: Debian's cmark-gfm registers them without a lock.
    private static let extensions = RegisteredExtensions()

    /// The cmark-gfm library's version ("0.29.0.gfm.6"), part of every render fingerprint.
    static var libraryVersion: String { String(cString: cmark_version_string()) }

    /// Renders `markdown` to an HTML fragment, or nil when cmark fails.
    ///
    /// With `rewritingMarkdownLinks`, relative links to `*.md` files point to their `*.html` twins, so one
    /// Markdown source serves both the `.md` page and the `.html` page.
    static func html(from markdown: String, rewritingMarkdownLinks: Bool) -> String? {
        var source = markdown
        return source.withUTF8 { render($0, rewritingMarkdownLinks: rewritingMarkdownLinks) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// `html(from:rewritingMarkdownLinks:)` from UTF-8 bytes to UTF-8 bytes, for pages built as bytes.
    static func html(fromUTF8 markdown: [UInt8], rewritingMarkdownLinks: Bool) -> [UInt8]? {
        markdown.withUnsafeBufferPointer { render($0, rewritingMarkdownLinks: rewritingMarkdownLinks) }
    }

    private static func render(_ source: UnsafeBufferPointer<UInt8>, rewritingMarkdownLinks: Bool) -> [UInt8]? {
        let extensions = Self.extensions
        guard let parser = cmark_parser_new(options) else { return nil }
        defer { cmark_parser_free(parser) }
        for syntaxExtension in extensions.pointers {
            cmark_parser_attach_syntax_extension(parser, syntaxExtension.pointer)
        }
        source.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
        }
        guard let document = cmark_parser_finish(parser) else { return nil }
        defer { cmark_node_free(document) }
        if rewritingMarkdownLinks { rewriteMarkdownLinks(in: document) }
        // The parser's extension list must reach the renderer, or tagfilter filters nothing.
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else {
            return nil
        }
        defer { free(rendered) }
        return rendered.withMemoryRebound(to: UInt8.self, capacity: strlen(rendered)) {
            Array(UnsafeBufferPointer(start: $0, count: strlen(rendered)))
        }
    }

    /// Points relative `x.md` links at `x.html`.
    private static func rewriteMarkdownLinks(in document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_LINK, let url = cmark_node_get_url(node)
            else { continue }
            let link = String(cString: url)
            // A byte search for ":" (Foundation's contains went through NSString for every link).
            guard link.hasSuffix(".md"), !link.utf8.contains(0x3A), !link.hasPrefix("/") else { continue }
            _ = cmark_node_set_url(node, String(link.dropLast(3)) + ".html")
        }
    }
}

/// Syntax extension pointers found after registering cmark-gfm's core extensions exactly once.
private struct RegisteredExtensions: @unchecked Sendable {
    /// A found extension; the pointer is owned by cmark's registry for the life of the process.
    struct Extension: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Only read after `init`, which runs once under Swift's `static let` lock: safe to share.
    let pointers: [Extension]

    init() {
        cmark_gfm_core_extensions_ensure_registered()
        pointers = Markdown.extensionNames.compactMap { name in
            cmark_find_syntax_extension(name).map(Extension.init(pointer:))
        }
    }
}

extension Markdown {
    /// Extensions cmark-gfm did not provide; the renderer refuses to start without all of them.
    static var missingExtensions: [String] {
        let found = extensions.pointers.count
        return found == extensionNames.count ? [] : extensionNames.filter { cmark_find_syntax_extension($0) == nil }
    }
}
