/// Everyone on the site in display order, with the lookups pages need (slugs by id, reports, departments).
struct SiteDirectory: Sendable {
    /// People sorted by surname (or display name), given name, display name, id.
    let people: [SitePerson]
    /// Position in `people` by Graph id, to link managers and reports.
    let positionByID: [String: Int]
    /// Positions of each manager's direct reports (by the manager's id), in display order.
    let reportsByManagerID: [String: [Int]]
    /// Departments in display order, with the positions of their people.
    let departments: [SiteDepartment]
    /// Letters in order (`a`…`z`, then `other`) with the positions of their people.
    let letters: [(key: String, people: [Int])]

    init(users: [User], hiding hidden: Set<String>) {
        let visible = users.map { $0.hiding(hidden) }
        var folds = FoldCache()
        let keyed = visible.map { (user: $0, key: SitePerson.sortKey(for: $0, folds: &folds)) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        let slugs = Slug.assign(keyed.map(\.user))
        var departmentsByKey: [String: (name: String, people: [Int])] = [:]
        var people: [SitePerson] = []
        people.reserveCapacity(keyed.count)
        for (index, entry) in keyed.enumerated() {
            var departmentFile: String?
            if let name = entry.user.department {
                let key = folds.base(name)
                departmentFile = Slug.namePart(name) + "-" + Slug.idHash(key, length: Slug.hashLength)
                departmentsByKey[key, default: (name, [])].people.append(index)
            }
            people.append(
                SitePerson(
                    user: entry.user, index: index, slug: slugs[index],
                    letter: SitePerson.letter(forSortKey: entry.key), departmentFile: departmentFile))
        }
        var positionByID: [String: Int] = [:]
        var reports: [String: [Int]] = [:]
        for person in people {
            positionByID[person.user.id] = positionByID[person.user.id] ?? person.index
            if let manager = person.user.manager { reports[manager.id, default: []].append(person.index) }
        }
        var letterPeople: [String: [Int]] = [:]
        for person in people { letterPeople[person.letter, default: []].append(person.index) }
        self.people = people
        self.positionByID = positionByID
        self.reportsByManagerID = reports
        self.departments = departmentsByKey.map { key, value in
            SiteDepartment(
                name: value.name, file: Slug.namePart(value.name) + "-" + Slug.idHash(key, length: Slug.hashLength),
                sortKey: Array(key.utf8), people: value.people)
        }.sorted { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        self.letters = (Self.letterKeys).compactMap { key in letterPeople[key].map { (key, $0) } }
    }

    /// Browse letters in page order.
    static let letterKeys: [String] = (0x61...0x7A).map { String(UnicodeScalar(UInt8($0))) } + ["other"]

    /// The label shown for a letter key.
    static func label(forLetter key: String) -> String {
        key == "other" ? "Other" : key.uppercased()
    }
}

/// Remembers folded values: given names, surnames and departments repeat thousands of times.
struct FoldCache {
    private var bases: [String: String] = [:]

    /// The base fold of `text`, computed once per distinct value.
    mutating func base(_ text: String) -> String {
        if let known = bases[text] { return known }
        let folded = SearchFolding.fold(text).base
        if bases.count < 200_000 { bases[text] = folded }
        return folded
    }
}

/// A department as the site lists it: the first spelling seen (in display order) names it.
struct SiteDepartment: Sendable {
    let name: String
    /// File name (without `.html`) under `departments/`.
    let file: String
    let sortKey: [UInt8]
    /// Positions of its people in display order.
    let people: [Int]
}
