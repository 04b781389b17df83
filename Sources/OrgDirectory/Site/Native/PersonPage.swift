/// Everything `person.md` and `person` show of one person, typed and made safe to display once: the compiled
/// templates read it directly, and `mustacheContext` hands overridden templates the same values by name.
struct PersonPage {
    /// A phone as the page lists it.
    struct Phone {
        let label: String
        let number: String
        /// The `tel:` link, when the number has enough digits to dial.
        let href: String?
    }

    /// The manager: linked when they are on the site, by name only when not.
    struct Manager {
        let name: String
        let href: String?
    }

    /// A direct report, always on the site.
    struct Report {
        let name: String
        let href: String
        let jobTitle: String?
    }

    /// One line of the history section: joined, left, or one changed field.
    struct HistoryLine {
        let day: String
        let nightHref: String
        let label: String
        let isMove: Bool
        /// Old and new value; nil for "Joined" and "Left".
        let change: (from: String, to: String)?
    }

    /// An extra `select`ed property.
    struct Extra {
        let label: String
        let value: String
    }

    let name: String
    let slug: String
    let givenName: String?
    let surname: String?
    let jobTitle: String?
    let department: String?
    let departmentHref: String?
    let office: String?
    let company: String?
    let mail: String?
    let mailHref: String?
    let userPrincipalName: String?
    let employeeId: String?
    let phones: [Phone]
    let manager: Manager?
    let reports: [Report]
    let history: [HistoryLine]
    /// Sorted by label.
    let extra: [Extra]
    /// This person's own "data as of".
    let stamp: SiteStamp

    var vcardHref: String { "\(slug).vcf" }
    var markdownHref: String { "\(slug).md" }

    /// The page of `person`, with their manager and reports as `links` has them and history nights looked up in
    /// `history`. Everything but the stamp is borrowed: an initializer's parameters are otherwise owned, and the
    /// caller copied the person, the links and the whole history (a retain of each field) for every page.
    init(
        _ person: borrowing SitePerson, stamp: SiteStamp, links: borrowing PersonLinks,
        history events: borrowing SiteHistory
    ) {
        let clean = SiteEscaping.displayText
        name = clean(person.user.displayName)
        slug = person.slug
        givenName = person.user.givenName.map(clean)
        surname = person.user.surname.map(clean)
        jobTitle = person.user.jobTitle.map(clean)
        department = person.user.department.map(clean)
        departmentHref = person.departmentFile.map { clean("../departments/\($0).html") }
        office = person.user.officeLocation.map(clean)
        company = person.user.companyName.map(clean)
        mail = person.user.mail.map(clean)
        mailHref = person.user.mail.map { clean(SiteEscaping.mailtoURL($0)) }
        userPrincipalName = person.user.userPrincipalName.isEmpty ? nil : clean(person.user.userPrincipalName)
        employeeId = person.user.employeeId.map(clean)
        phones = person.phones.map {
            Phone(label: $0.label, number: clean($0.link.written), href: $0.link.uri.map(clean))
        }
        manager = links.manager.map { manager in
            Manager(name: clean(manager.name ?? "Unknown"), href: manager.slug.map { clean("\($0).md") })
        }
        reports = links.reports.map { report in
            Report(name: clean(report.name), href: "\(report.slug).md", jobTitle: report.jobTitle.map(clean))
        }
        history = Self.historyLines(of: person, in: events)
        extra = person.user.extra.sorted { $0.key < $1.key }.map { Extra(label: clean($0.key), value: clean($0.value)) }
        self.stamp = stamp
    }

    /// One line per joined/left event and per changed field, newest night first.
    private static func historyLines(of person: SitePerson, in history: SiteHistory) -> [HistoryLine] {
        var lines: [HistoryLine] = []
        for event in history.eventsByPerson[person.user.id] ?? [] {
            guard let night = history.nightBySnapshot[event.snapshot] else { continue }
            let day = night.stamp.day
            let nightHref = "../changes/\(night.file).html"
            switch event.kind {
            case .joined, .left:
                let label = event.kind == .joined ? "Joined" : "Left"
                lines.append(HistoryLine(day: day, nightHref: nightHref, label: label, isMove: false, change: nil))
            case .changed:
                for change in event.fieldChanges {
                    let clean = SiteEscaping.displayText
                    lines.append(
                        HistoryLine(
                            day: day, nightHref: nightHref, label: clean(change.label), isMove: change.isMove,
                            change: (clean(change.old ?? "none"), clean(change.new ?? "none"))))
                }
            }
        }
        return lines
    }
}
