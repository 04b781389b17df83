/// What the `layout` template wraps every HTML page in: titles, where the site root is from this page, its
/// scripts, its kind, the "data as of" stamp and the export links.
struct PageFrame {
    /// The site title, safe to display.
    let siteTitle: String
    /// This page's title, safe to display.
    let pageTitle: String
    /// `""` or `"../"`: the way back to the site root.
    let root: String
    /// Script paths relative to the root.
    let scripts: [String]
    /// The `<body>` class (`person`, `letter`, …).
    let kind: String
    /// The index page carries its own search form, so the header leaves its form out.
    let isIndex: Bool
    let stamp: SiteStamp
    /// The exports the footer links to, in menu order.
    let exports: [SiteExport]

    init(
        siteTitle: String, pageTitle: String, root: String, scripts: [String], kind: String, isIndex: Bool,
        stamp: SiteStamp, exports: [SiteExport]
    ) {
        self.siteTitle = SiteEscaping.displayText(siteTitle)
        self.pageTitle = SiteEscaping.displayText(pageTitle)
        self.root = root
        self.scripts = scripts
        self.kind = kind
        self.isIndex = isIndex
        self.stamp = stamp
        self.exports = exports
    }
}
