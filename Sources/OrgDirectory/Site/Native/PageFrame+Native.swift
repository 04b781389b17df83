/// The built-in `layout` template, compiled: what comes before the page body and what comes after it.
/// `BuiltinTemplateDriftTests` keeps it byte for byte equal to Mustache rendering `Templates/layout.mustache`.
extension PageFrame {
    /// Everything up to `{{{content}}}`.
    func appendHead(to page: inout PageBytes) {
        appendHeadStart(to: &page)
        page.html(pageTitle)
        appendHeadRest(to: &page)
    }

    /// The head up to the page title, which is the same for every page.
    func appendHeadStart(to page: inout PageBytes) {
        page.text(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; \
            style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'">
            <meta name="referrer" content="no-referrer">
            <meta name="generator" content="orgdir">
            <title>
            """)
    }

    /// The head after the page title: the same for every page of one kind and root.
    func appendHeadRest(to page: inout PageBytes) {
        page.text(" · ")
        page.html(siteTitle)
        page.text("</title>\n<link rel=\"stylesheet\" href=\"")
        page.html(root)
        page.text("assets/site.css\">\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"")
        page.html(siteTitle)
        page.text(": what changed\" href=\"")
        page.html(root)
        page.text("changes.atom\">\n")
        for script in scripts {
            page.text("<script src=\"")
            page.html(root)
            page.html(script)
            page.text("\" defer></script>\n")
        }
        page.text("</head>\n<body class=\"")
        page.html(kind)
        page.text("\">\n<a class=\"skip-link\" href=\"#main\">Skip to content</a>\n<header class=\"site-header\">\n")
        page.text("<a class=\"site-title\" href=\"")
        page.html(root)
        page.text("index.html\">")
        page.html(siteTitle)
        page.text("</a>\n<nav aria-label=\"Site\">\n<ul>\n<li><a href=\"")
        page.html(root)
        page.text("index.html\">Search</a></li>\n<li><a href=\"")
        page.html(root)
        page.text("browse/index.html\">People A–Z</a></li>\n<li><a href=\"")
        page.html(root)
        page.text("departments.html\">Departments</a></li>\n<li><a href=\"")
        page.html(root)
        page.text("changes.html\">What changed</a></li>\n</ul>\n</nav>\n")
        if !isIndex {
            page.text("<form class=\"header-search\" role=\"search\" action=\"")
            page.html(root)
            page.text(
                """
                index.html" method="get">
                <label for="header-q" class="visually-hidden">Search people</label>
                <input id="header-q" name="q" type="search" placeholder="Search people" autocomplete="off">
                <button type="submit">Search</button>
                </form>

                """)
        }
        page.text("</header>\n<main id=\"main\" tabindex=\"-1\">\n")
    }

    /// Everything after `{{{content}}}`.
    func appendTail(to page: inout PageBytes) {
        page.text("\n</main>\n<footer class=\"site-footer\">\n<p>Data as of <time datetime=\"")
        page.html(stamp.iso)
        page.text("\">")
        page.html(stamp.display)
        page.text("</time>.")
        if !exports.isEmpty {
            page.text(" Download everyone:")
            for export in exports {
                page.text(" <a href=\"")
                page.html(root)
                page.html(export.fileName)
                page.text("\" download>")
                page.html(export.rawValue.uppercased())
                page.text("</a>")
            }
        }
        page.text("</p>\n</footer>\n</body>\n</html>\n")
    }
}

/// A layout's bytes around the page title and the body, worked out once for pages that differ in nothing else:
/// the person pages, whose frames differ only in the title (and in the stamp of a person whose record changed
/// since the history began). Writing the frame piece by piece, escaping the site title and root every time, was
/// about 1.3 % of a first build's CPU.
struct FrameBytes: Sendable {
    private let start: [UInt8]
    private let rest: [UInt8]
    private let tail: [UInt8]
    /// The stamp `tail` shows.
    private let stamp: SiteStamp

    /// The pieces of `frame` (its page title is not used).
    init(_ frame: PageFrame) {
        var page = PageBytes()
        frame.appendHeadStart(to: &page)
        start = page.bytes
        page = PageBytes()
        frame.appendHeadRest(to: &page)
        rest = page.bytes
        page = PageBytes()
        frame.appendTail(to: &page)
        tail = page.bytes
        stamp = frame.stamp
    }

    /// `frame.appendHead` for a frame like the one these were made from, titled `title` (safe to display).
    func appendHead(title: String, to page: inout PageBytes) {
        page.raw(start)
        page.html(title)
        page.raw(rest)
    }

    /// `frame.appendTail` for a frame like the one these were made from, showing `stamp`.
    func appendTail(stamp: SiteStamp, frame: @autoclosure () -> PageFrame, to page: inout PageBytes) {
        if stamp == self.stamp {
            page.raw(tail)
        } else {
            frame().appendTail(to: &page)
        }
    }
}
