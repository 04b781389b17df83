/// What a person's page shows of other people: the manager and the direct reports.
///
/// The final render looks them up in the whole directory (`init(of:in:)`). While people are still arriving
/// from Graph, `assumed(for:)` guesses them from the person's own record: the manager on the site under their
/// ordinary slug, no reports. A page rendered on that guess is kept only when the render fingerprint, which
/// includes these links, comes out the same once the directory is known.
struct PersonLinks: Sendable {
    /// The manager as the page names and links them; nil when the record names no manager.
    struct Manager: Sendable {
        /// The name from the record's `manager` reference, else from the manager's own record.
        let name: String?
        /// The manager's slug when they are on the site.
        let slug: String?
    }

    /// A direct report (always on the site).
    struct Report: Sendable {
        let name: String
        let slug: String
        let jobTitle: String?
    }

    let manager: Manager?
    /// In display order.
    let reports: [Report]

    /// The links of `user` as `directory` resolves them.
    init(of user: borrowing User, in directory: borrowing SiteDirectory) {
        self.init(
            manager: directory.manager(named: user.manager), reports: directory.reportsByManagerID[user.id] ?? [],
            in: directory)
    }

    /// The links of `person` as `directory` resolves them: by `person`'s display position where the directory has
    /// placed them (`SiteDirectory.manager(of:)`, `reports(of:)`), else by id. Reads the two fields it needs:
    /// passing the whole user out of the directory's list copies every field, for each of a nightly run's hundred
    /// thousand people. The directory is borrowed: an initializer's parameters are otherwise owned, and the caller
    /// copied the whole `SiteDirectory` (a retain of each of its fields) for every person it linked.
    init(of person: borrowing SitePerson, in directory: borrowing SiteDirectory) {
        self.init(manager: directory.manager(of: person), reports: directory.reports(of: person), in: directory)
    }

    /// The links of a person whose record names `placed` and whose direct reports are at `positions` of `directory`.
    private init(
        manager placed: SiteDirectory.PlacedManager, reports positions: [Int], in directory: borrowing SiteDirectory
    ) {
        manager =
            placed.named
            ? Manager(
                name: placed.displayName(in: directory.people),
                slug: placed.position < 0 ? nil : directory.people[Int(placed.position)].slug)
            : nil
        reports = positions.map { position in
            let report = directory.people[position]
            return Report(name: report.user.displayName, slug: report.slug, jobTitle: report.user.jobTitle)
        }
    }

    private init(manager: Manager?, reports: [Report]) {
        self.manager = manager
        self.reports = reports
    }

    /// The likely links of `user` before the directory is complete: a named manager is on the site under
    /// the ordinary slug of that name, and nobody reports to anyone yet (managers are rendered again).
    static func assumed(for user: User) -> PersonLinks {
        let manager = user.manager.map { reference in
            Manager(
                name: reference.displayName,
                slug: reference.displayName.map { Slug.make(displayName: $0, id: reference.id) })
        }
        return PersonLinks(manager: manager, reports: [])
    }
}
