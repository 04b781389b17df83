/// The built-in `person.md` and `person` templates, compiled. `BuiltinTemplateDriftTests` keeps them byte for
/// byte equal to Mustache rendering `Templates/person.md.mustache` and `Templates/person.mustache`.
extension PersonPage {
    /// `person.md`: every value escaped for Markdown.
    func markdownBytes() -> [UInt8] {
        var page = PageBytes(capacity: 1024)
        page.text("# ")
        page.markdown(name)
        page.text("\n\n")
        if let jobTitle {
            page.text("**")
            page.markdown(jobTitle)
            page.text("**\n\n")
        }
        if let department { appendLinkedItem("- Department: [", department, departmentHref, to: &page) }
        if let office { appendItem("- Office: ", office, to: &page) }
        if let company { appendItem("- Company: ", company, to: &page) }
        if let mail { appendLinkedItem("- Mail: [", mail, mailHref, to: &page) }
        for phone in phones {
            page.text("- ")
            page.markdown(phone.label)
            page.text(": ")
            appendLink(phone.number, phone.href, to: &page)
            page.text("\n")
        }
        if let manager {
            page.text("- Manager: ")
            appendLink(manager.name, manager.href, to: &page)
            page.text("\n")
        }
        for field in extra {
            page.text("- ")
            page.markdown(field.label)
            page.text(": ")
            page.markdown(field.value)
            page.text("\n")
        }
        if !reports.isEmpty {
            page.text("\n## Direct reports\n\n")
            for report in reports {
                page.text("- [")
                page.markdown(report.name)
                page.text("](")
                page.markdown(report.href)
                page.text(")")
                if let jobTitle = report.jobTitle {
                    page.text(", ")
                    page.markdown(jobTitle)
                }
                page.text("\n")
            }
        }
        if !history.isEmpty {
            page.text("\n## History\n\n")
            for line in history {
                page.text("- ")
                if line.isMove {
                    page.text("**")
                    page.markdown(line.label)
                    page.text("**")
                } else {
                    page.markdown(line.label)
                }
                if let change = line.change {
                    page.text(": ")
                    page.markdown(change.from)
                    page.text(" → ")
                    page.markdown(change.to)
                }
                page.text(", [")
                page.markdown(line.day)
                page.text("](")
                page.markdown(line.nightHref)
                page.text(")\n")
            }
        }
        page.text("\n[Download vCard](")
        page.markdown(vcardHref)
        page.text(")\n\nData as of ")
        page.markdown(stamp.display)
        page.text(".\n")
        return page.bytes
    }

    /// `- Office: {{office}}` and the like, with its line break.
    private func appendItem(_ label: StaticString, _ value: String, to page: inout PageBytes) {
        page.text(label)
        page.markdown(value)
        page.text("\n")
    }

    /// `- Department: [{{department}}]({{departmentHref}})` and the like: the link is written even when its
    /// target is missing, as the template writes it.
    private func appendLinkedItem(_ label: StaticString, _ text: String, _ href: String?, to page: inout PageBytes) {
        page.text(label)
        page.markdown(text)
        page.text("](")
        if let href { page.markdown(href) }
        page.text(")\n")
    }

    /// `{{#href}}[{{text}}]({{href}}){{/href}}{{^href}}{{text}}{{/href}}`.
    private func appendLink(_ text: String, _ href: String?, to page: inout PageBytes) {
        if let href {
            page.text("[")
            page.markdown(text)
            page.text("](")
            page.markdown(href)
            page.text(")")
        } else {
            page.markdown(text)
        }
    }

    /// `person`: the page body around the HTML cmark made of `person.md`.
    func appendBody(markdownHTML: [UInt8], to page: inout PageBytes) {
        page.text("<article class=\"person-page\">\n")
        page.raw(markdownHTML)
        page.text("\n</article>\n<aside class=\"person-links\" aria-label=\"This page as\">\n<ul>\n<li><a href=\"")
        page.html(vcardHref)
        page.text("\" download>Add to contacts (vCard)</a></li>\n<li><a href=\"")
        page.html(markdownHref)
        page.text("\">Markdown</a></li>\n</ul>\n</aside>\n")
    }
}
