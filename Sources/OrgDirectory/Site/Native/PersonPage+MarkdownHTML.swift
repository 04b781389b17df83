/// The HTML cmark-gfm makes of the built-in `person.md`, made without cmark.
///
/// Why: parsing a hundred thousand small Markdown pages was a sixth of a first build's CPU (a build with the
/// cmark call taken out ran 0.9 s faster at 100,000 people), and for the built-in template the result is known
/// in advance. Each value `markdownBytes()` writes is escaped so cmark shows it as it is, so the HTML is fixed
/// tags around the values with `&`, `<`, `>` and `"` escaped, as cmark escapes text.
///
/// Only values whose Markdown cmark reads that plainly take this path (`PlainHTML`): a value with leading,
/// trailing or doubled spaces, another kind of space or a control character, or a link with characters cmark
/// would percent-encode, makes `markdownHTMLBytes()` return nil, and the page goes through cmark as before.
/// `PersonPageMarkdownHTMLTests` holds the two byte for byte equal on generated and hostile people.
extension PersonPage {
    /// `markdownBytes()` as cmark-gfm renders it (with `.md` links pointing at `.html`), or nil when a value is
    /// not plain enough to be sure of cmark's reading.
    func markdownHTMLBytes() -> [UInt8]? {
        var html = PlainHTML()
        html.text("<h1>")
        html.plain(name)
        html.text("</h1>\n")
        if let jobTitle {
            html.text("<p><strong>")
            html.plain(jobTitle)
            html.text("</strong></p>\n")
        }
        var details = PlainHTML.List()
        if let department {
            details.item(in: &html, "Department: ")
            html.link(department, departmentHref)
            details.end(in: &html)
        }
        if let office { details.plainItem(in: &html, "Office: ", office) }
        if let company { details.plainItem(in: &html, "Company: ", company) }
        if let mail {
            details.item(in: &html, "Mail: ")
            html.link(mail, mailHref)
            details.end(in: &html)
        }
        for phone in phones {
            details.item(in: &html)
            html.plain(phone.label)
            html.text(": ")
            html.optionalLink(phone.number, phone.href)
            details.end(in: &html)
        }
        if let manager {
            details.item(in: &html, "Manager: ")
            html.optionalLink(manager.name, manager.href)
            details.end(in: &html)
        }
        for field in extra {
            details.item(in: &html)
            html.plain(field.label)
            html.text(": ")
            html.plain(field.value)
            details.end(in: &html)
        }
        details.close(in: &html)
        if !reports.isEmpty {
            html.text("<h2>Direct reports</h2>\n")
            var list = PlainHTML.List()
            for report in reports {
                list.item(in: &html)
                html.link(report.name, report.href)
                if let jobTitle = report.jobTitle {
                    html.text(", ")
                    html.plain(jobTitle)
                }
                list.end(in: &html)
            }
            list.close(in: &html)
        }
        if !history.isEmpty {
            html.text("<h2>History</h2>\n")
            var list = PlainHTML.List()
            for line in history {
                list.item(in: &html)
                if line.isMove {
                    html.text("<strong>")
                    html.plain(line.label)
                    html.text("</strong>")
                } else {
                    html.plain(line.label)
                }
                if let change = line.change {
                    html.text(": ")
                    html.plain(change.from)
                    html.text(" → ")
                    html.plain(change.to)
                }
                html.text(", ")
                html.link(line.day, line.nightHref)
                list.end(in: &html)
            }
            list.close(in: &html)
        }
        html.text("<p>")
        html.templateLink("Download vCard", vcardHref)
        html.text("</p>\n<p>Data as of ")
        html.plain(stamp.display)
        html.text(".</p>\n")
        return html.isPlain ? html.bytes : nil
    }
}
