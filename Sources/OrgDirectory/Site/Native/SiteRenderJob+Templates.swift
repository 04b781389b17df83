/// How each page is rendered: by the compiled built-in template when the templates folder does not override it
/// (or any partial it uses), else through Mustache with the same values by name. Both give the same bytes for
/// the built-in templates; `BuiltinTemplateDriftTests` holds them to it.
extension SiteRenderJob {
    /// The templates each compiled page stands for: an override of any of them sends the page to Mustache.
    enum CompiledPage {
        static let layout = ["layout"]
        static let personMarkdown = ["person.md"]
        static let person = ["person"]
        static let index = ["index", "letters", "person-row"]
        static let letter = ["letter", "letters", "pager", "person-row"]
        static let department = ["department", "pager", "person-row"]
        static let changes = ["changes", "change-night"]
        static let change = ["change", "change-night"]
    }

    /// The layout's values for a page of `kind` titled `title`, `root` away from the site root.
    func frame(
        kind: String, title: String, root: String, scripts: [String] = [], isIndex: Bool = false,
        stamp: SiteStamp? = nil
    ) -> PageFrame {
        PageFrame(
            siteTitle: options.title, pageTitle: title, root: root, scripts: scripts, kind: kind, isIndex: isIndex,
            stamp: stamp ?? self.stamp, exports: SiteExport.allCases.filter { options.exports.contains($0) })
    }

    /// A whole HTML page: `body` appends the page body, the layout goes around it.
    func page(
        _ frame: PageFrame, body: (inout PageBytes) throws(SiteError) -> Void
    ) throws(SiteError) -> [UInt8] {
        var page = PageBytes(capacity: 8192)
        if templates.isBuiltin(CompiledPage.layout) {
            frame.appendHead(to: &page)
            try body(&page)
            frame.appendTail(to: &page)
            return page.bytes
        }
        try body(&page)
        let content = String(decoding: page.bytes, as: UTF8.self)
        return Array(try templates.render("layout", frame.mustacheContext(content: content)).utf8)
    }

    /// A person page titled `title` showing `stamp`: the body of `model` (around `markdownHTML`, its Markdown's
    /// HTML) with the layout around it, from the pieces made once (`personFrame`) when there are some.
    ///
    /// The body is written here, not by a closure the caller passes: a closure captures the job and the page model
    /// by value, a retain of each of their fields for every person (copying the job alone was 45 of a first build's
    /// 9,438 samples).
    func personPage(
        of model: PersonPage, markdownHTML: [UInt8], title: String, stamp: SiteStamp
    ) throws(SiteError) -> [UInt8] {
        guard let personFrame else {
            return try page(personPageFrame(title: title, stamp: stamp)) { (page: inout PageBytes) throws(SiteError) in
                try appendBody(of: model, markdownHTML: markdownHTML, to: &page)
            }
        }
        var page = PageBytes(capacity: 8192)
        personFrame.appendHead(title: SiteEscaping.displayText(title), to: &page)
        try appendBody(of: model, markdownHTML: markdownHTML, to: &page)
        personFrame.appendTail(stamp: stamp, frame: personPageFrame(title: title, stamp: stamp), to: &page)
        return page.bytes
    }

    /// This job with the person pages' frame made once (`personPage`), when the built-in layout is in use.
    func withPersonFrame() -> SiteRenderJob {
        guard templates.isBuiltin(CompiledPage.layout) else { return self }
        var job = self
        job.personFrame = FrameBytes(personPageFrame(title: "", stamp: stamp))
        return job
    }

    /// The frame of a person page titled `title` showing `stamp`.
    private func personPageFrame(title: String, stamp: SiteStamp) -> PageFrame {
        frame(kind: "person", title: title, root: "../", stamp: stamp)
    }

    /// `person.md` for one person.
    func markdown(of person: PersonPage) throws(SiteError) -> [UInt8] {
        if templates.isBuiltin(CompiledPage.personMarkdown) { return person.markdownBytes() }
        return Array(try templates.render("person.md", person.mustacheContext).utf8)
    }

    /// The HTML of `markdown`, the person's `person.md` at `path`: made directly when the built-in template wrote
    /// it and every value is plain (`PersonPage.markdownHTMLBytes()`), else by cmark-gfm.
    func markdownHTML(of person: PersonPage, markdown: [UInt8], path: String) throws(SiteError) -> [UInt8] {
        if templates.isBuiltin(CompiledPage.personMarkdown), let html = person.markdownHTMLBytes() { return html }
        guard let html = Markdown.html(fromUTF8: markdown, rewritingMarkdownLinks: true) else {
            throw .markdownFailed(path: path)
        }
        return html
    }

    /// The `person` page body around `markdownHTML`, the HTML of the person's Markdown page.
    func appendBody(of person: PersonPage, markdownHTML: [UInt8], to page: inout PageBytes) throws(SiteError) {
        if templates.isBuiltin(CompiledPage.person) {
            person.appendBody(markdownHTML: markdownHTML, to: &page)
        } else {
            let context = person.mustachePageContext(markdownHTML: String(decoding: markdownHTML, as: UTF8.self))
            page.raw(try templates.render("person", context))
        }
    }

    /// The `index` page body.
    func appendBody(of index: ListPage.Index, to page: inout PageBytes) throws(SiteError) {
        if templates.isBuiltin(CompiledPage.index) {
            ListPage.append(index, to: &page)
        } else {
            page.raw(try templates.render("index", ListPage.context(index)))
        }
    }

    /// A `letter` page body.
    func appendBody(of letter: ListPage.Letter, to page: inout PageBytes) throws(SiteError) {
        if templates.isBuiltin(CompiledPage.letter) {
            ListPage.append(letter, to: &page)
        } else {
            page.raw(try templates.render("letter", ListPage.context(letter)))
        }
    }

    /// A `department` page body.
    func appendBody(of department: ListPage.Department, to page: inout PageBytes) throws(SiteError) {
        if templates.isBuiltin(CompiledPage.department) {
            ListPage.append(department, to: &page)
        } else {
            page.raw(try templates.render("department", ListPage.context(department)))
        }
    }
}
