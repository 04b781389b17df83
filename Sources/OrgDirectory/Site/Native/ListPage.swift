/// The typed contexts of the list pages (`index`, `letter`, `department`) and their partials (`person-row`,
/// `letters`, `pager`), with values made safe to display once.
enum ListPage {
    /// One person in a list: the same fields the search results show.
    struct Row {
        let slug: String
        let name: String
        let jobTitle: String?
        let department: String?
        let office: String?
        let phone: String?
        let phoneHref: String?
        let mail: String?
        let mailHref: String?

        init(_ person: SitePerson) {
            let clean = SiteEscaping.displayText
            slug = person.slug
            name = clean(person.user.displayName)
            jobTitle = person.user.jobTitle.map(clean)
            department = person.user.department.map(clean)
            office = person.user.officeLocation.map(clean)
            phone = person.primaryPhone.map { clean($0.written) }
            phoneHref = person.primaryPhone?.uri.map(clean)
            mail = person.user.mail.map(clean)
            mailHref = person.user.mail.map { clean(SiteEscaping.mailtoURL($0)) }
        }
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
    }

    /// `departments/<name>[-n].html`: one page of a department's people.
    struct Department {
        let name: String
        let count: Int
        let pages: [PagerLink]
        let rows: [Row]
    }
}
