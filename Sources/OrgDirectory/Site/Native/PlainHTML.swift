/// HTML of Markdown-escaped values, written as cmark-gfm writes them, that notes any value cmark might read
/// otherwise (see `PersonPage.markdownHTMLBytes()`).
struct PlainHTML {
    private(set) var bytes: [UInt8] = []
    /// False once a value was not plain: the bytes are then not what cmark would make.
    private(set) var isPlain = true

    init() {
        bytes.reserveCapacity(1_536)
    }

    /// A tight bullet list as cmark writes it: `<ul>` before the first item, `</ul>` after the last, if any.
    struct List {
        private var isOpen = false

        /// Starts an item (and the list, on the first), with `label` as its first text.
        mutating func item(in html: inout PlainHTML, _ label: StaticString = "") {
            if !isOpen {
                html.text("<ul>\n")
                isOpen = true
            }
            html.text("<li>")
            html.text(label)
        }

        /// `- label value`, a whole item of plain text.
        mutating func plainItem(in html: inout PlainHTML, _ label: StaticString, _ value: String) {
            item(in: &html, label)
            html.plain(value)
            end(in: &html)
        }

        /// Ends an item.
        func end(in html: inout PlainHTML) {
            html.text("</li>\n")
        }

        /// Ends the list, when it was started.
        func close(in html: inout PlainHTML) {
            if isOpen { html.text("</ul>\n") }
        }
    }

    /// Markup of the template itself.
    mutating func text(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A value as cmark shows the text its escaped Markdown stands for: `&`, `<`, `>` and `"` as entities,
    /// everything else as it is. Not plain: an empty value (`****` is a rule, not an empty bold), a space at
    /// either end or two in a row (cmark trims or breaks lines there), a control character, a non-ASCII
    /// space or separator (emphasis and line rules treat those as white space), an `@` outside a link's text (the
    /// autolink extension finds addresses in text after escapes are undone, so `a\@b.c` becomes a link) or
    /// `www.` in any case (escaped unless a combining mark follows the dot, which the autolink extension ignores).
    mutating func plain(_ value: String, inLink: Bool = false) {
        var isASCII = true
        let plain = value.withUTF8Bytes { utf8 -> Bool in
            guard let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20 else { return false }
            var plain = true
            var previous: UInt8 = 0
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                let before = previous
                previous = byte
                let entity: StaticString
                switch byte {
                case 0x26: entity = "&amp;"
                case 0x3C: entity = "&lt;"
                case 0x3E: entity = "&gt;"
                case 0x22: entity = "&quot;"
                case 0x2E:
                    if SiteEscaping.dotEndsWWW(utf8, at: position) { plain = false }
                    continue
                case 0x20:
                    if before == 0x20 { plain = false }
                    continue
                case 0x40:
                    if !inLink { plain = false }
                    continue
                case 0x00..<0x20, 0x7F:
                    plain = false
                    continue
                case 0x80...:
                    isASCII = false
                    continue
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
                runStart = position + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            return plain
        }
        if !plain || (!isASCII && value.unicodeScalars.contains(where: Self.isUnsettled)) { isPlain = false }
    }

    /// `[text](href)` as cmark renders it, `.md` links pointing at `.html` (`Markdown.html`'s
    /// `rewritingMarkdownLinks`); a missing `href` is the empty link the template writes then.
    mutating func link(_ label: String, _ href: String?) {
        text("<a href=\"")
        destination(href ?? "")
        text("\">")
        plain(label, inLink: true)
        text("</a>")
    }

    /// `{{#href}}[text](href){{/href}}{{^href}}text{{/href}}`.
    mutating func optionalLink(_ label: String, _ href: String?) {
        if let href {
            link(label, href)
        } else {
            plain(label)
        }
    }

    /// `[Download vCard](href)` and other links whose text is the template's.
    mutating func templateLink(_ label: StaticString, _ href: String) {
        text("<a href=\"")
        destination(href)
        text("\">")
        text(label)
        text("</a>")
    }

    /// A link destination: plain when every byte is one cmark writes as it is (letters, digits and
    /// `-._~/+@%!$*=`, nothing that needs an entity or percent-encoding) and any `:` belongs to a `mailto:` or
    /// `tel:` link (nothing cmark's safe mode would empty); a relative `x.md` becomes `x.html`.
    private mutating func destination(_ href: String) {
        var hasColon = false
        for byte in href.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E, 0x2F, 0x2B, 0x40, 0x25, 0x21, 0x24,
                0x2A, 0x3D:
                continue
            case 0x3A: hasColon = true
            default: isPlain = false
            }
        }
        if hasColon, !(href.hasPrefix("mailto:") || href.hasPrefix("tel:")) { isPlain = false }
        if !hasColon, !href.hasPrefix("/"), href.hasSuffix(".md") {
            bytes.append(contentsOf: href.utf8.dropLast(3))
            text(".html")
        } else {
            bytes.append(contentsOf: href.utf8)
        }
    }

    /// Non-ASCII scalars cmark may not take as plain text: spaces, separators, controls and code points with no
    /// settled meaning.
    private static func isUnsettled(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .surrogate, .privateUse, .unassigned:
            return true
        default:
            return false
        }
    }
}
