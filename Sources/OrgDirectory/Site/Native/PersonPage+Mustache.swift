extension PersonPage {
    /// The context of an overridden `person.md` (and, with `markdownHTML` and `root`, of `person`): every value
    /// under its documented name, a missing optional as `TemplateValue.absent` so sections skip it without
    /// finding a same-named value further out.
    var mustacheContext: [String: Any] {
        func optional(_ value: String?) -> Any { value ?? TemplateValue.absent }
        var context: [String: Any] = [
            "name": name, "slug": slug, "givenName": optional(givenName), "surname": optional(surname),
            "jobTitle": optional(jobTitle), "department": optional(department),
            "departmentHref": optional(departmentHref), "office": optional(office), "company": optional(company),
            "mail": optional(mail), "mailHref": optional(mailHref), "userPrincipalName": optional(userPrincipalName),
            "employeeId": optional(employeeId), "vcardHref": vcardHref, "markdownHref": markdownHref,
            "generatedAt": stamp.display, "generatedAtISO": stamp.iso,
        ]
        context["phones"] = phones.map { phone -> [String: Any] in
            ["label": phone.label, "number": phone.number, "href": optional(phone.href)]
        }
        context["manager"] =
            manager.map { manager -> Any in ["name": manager.name, "href": optional(manager.href)] as [String: Any] }
            ?? TemplateValue.absent
        context["hasReports"] = !reports.isEmpty
        context["reports"] = reports.map { report -> [String: Any] in
            ["name": report.name, "href": report.href, "jobTitle": optional(report.jobTitle)]
        }
        context["hasHistory"] = !history.isEmpty
        context["history"] = history.map { line -> [String: Any] in
            [
                "day": line.day, "nightHref": line.nightHref, "label": line.label, "hasChange": line.change != nil,
                "move": line.isMove, "from": optional(line.change?.from), "to": optional(line.change?.to),
            ]
        }
        context["extra"] = extra.map { ["label": $0.label, "value": $0.value] }
        return context
    }

    /// The context of an overridden `person`: the Markdown page's values plus its rendered HTML.
    func mustachePageContext(markdownHTML: String) -> [String: Any] {
        var context = mustacheContext
        context["markdownHTML"] = markdownHTML
        context["root"] = "../"
        return context
    }
}
