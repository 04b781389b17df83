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
        self.init(manager: user.manager, reports: directory.reportsByManagerID[user.id] ?? [], in: directory)
    }

    /// The links of `person` as `directory` resolves them: by `person`'s display position where the directory has
    /// placed them (`SiteDirectory.placedLinks`), else by id. Reads the two fields it needs: passing the whole user
    /// out of the directory's list copies every field, for each of a nightly run's hundred thousand people. The
    /// directory is borrowed: an initializer's parameters are otherwise owned, and the caller copied the whole
    /// `SiteDirectory` (a retain of each of its fields) for every person it linked.
    init(of person: borrowing SitePerson, in directory: borrowing SiteDirectory) {
        guard let placed = directory.placedLinks(of: person) else {
            self.init(
                manager: person.user.manager, reports: directory.reportsByManagerID[person.user.id] ?? [],
                in: directory)
            return
        }
        let manager = placed.manager
        let position = manager.position < 0 ? nil : Int(manager.position)
        self.init(
            manager: manager.named
                ? Manager(
                    name: manager.displayName(in: directory.people), slug: position.map { directory.people[$0].slug })
                : nil,
            reports: Self.reports(at: placed.reports, in: directory))
    }

    /// The links of a person whose record names `manager` and whose direct reports are at `positions` of `directory`.
    private init(manager reference: ManagerReference?, reports positions: [Int], in directory: borrowing SiteDirectory)
    {
        self.init(
            manager: reference, at: reference.flatMap { directory.positionByID[$0.id] }, reports: positions,
            in: directory)
    }

    /// The links of a person whose record names `manager`, who is at `managerPosition` of `directory` when on the
    /// site, and whose direct reports are at `positions`.
    private init(
        manager reference: ManagerReference?, at managerPosition: Int?, reports positions: [Int],
        in directory: borrowing SiteDirectory
    ) {
        manager = reference.map { reference in
            Manager(
                name: reference.displayName ?? managerPosition.map { directory.people[$0].user.displayName },
                slug: managerPosition.map { directory.people[$0].slug })
        }
        reports = Self.reports(at: positions, in: directory)
    }

    /// The direct reports at `positions` of `directory`.
    private static func reports(at positions: [Int], in directory: borrowing SiteDirectory) -> [Report] {
        positions.map { position in
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
