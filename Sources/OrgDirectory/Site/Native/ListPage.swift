/// The typed contexts of the list pages (`index`, `letter`, `department`) and their partials (`person-row`,
/// `letters`, `pager`), with values made safe to display (a row's as they are read).
enum ListPage {
    /// One person in a list: the same fields the search results show, each made safe to display when read.
    ///
    /// A reference to the person, not a copy of nine values: every person's row is made for a browse page and a
    /// department page, and the compiled `person-row` reads each field once (and never the office), so storing
    /// them all was a retain and a cleaning pass per field for nothing.
    struct Row {
        /// Read field by field where the compiled `person-row` writes it (`ListPage.append(_:root:to:)`).
        let person: SitePerson

        init(_ person: SitePerson) {
            self.person = person
        }

        var slug: String { person.slug }
        var name: String { SiteEscaping.displayText(person.user.displayName) }
        var jobTitle: String? { person.user.jobTitle.map(SiteEscaping.displayText) }
        var department: String? { person.user.department.map(SiteEscaping.displayText) }
        var office: String? { person.user.officeLocation.map(SiteEscaping.displayText) }
        var phone: String? { person.primaryPhone.map { SiteEscaping.displayText($0.written) } }
        var phoneHref: String? { person.primaryPhone?.uri.map(SiteEscaping.displayText) }
        var mail: String? { person.user.mail.map(SiteEscaping.displayText) }
        var mailHref: String? { person.user.mail.map { SiteEscaping.displayText(SiteEscaping.mailtoURL($0)) } }
    }

    /// A link of the A–Z navigation.
    struct LetterLink {
        let file: String
        let label: String
        let count: Int
        /// The page this link is on.
        let isCurrent: Bool
    }

    /// A link of a long list's page navigation.
    struct PagerLink {
        let file: String
        let number: Int
        let isCurrent: Bool
    }

    /// `index.html`: the search box, and everyone when the directory is small enough.
    struct Index {
        let title: String
        let count: Int
        let isListed: Bool
        let letters: [LetterLink]
        /// Empty unless `isListed`.
        let rows: [Row]
    }

    /// `browse/<letter>[-n].html`: one page of the people under one letter.
    struct Letter {
        let label: String
        let letters: [LetterLink]
        let pages: [PagerLink]
        let rows: [Row]
        /// The rows made already (the compiled page copies them from here).
        var made: ListRows? = nil
    }

    /// `departments/<name>[-n].html`: one page of a department's people.
    struct Department {
        let name: String
        let count: Int
        let pages: [PagerLink]
        let rows: [Row]
        /// The rows made already (the compiled page copies them from here).
        var made: ListRows? = nil
    }
}
