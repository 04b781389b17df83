import Foundation

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

    /// The directory of `users` (any order) with `hidden` fields removed, prepared on this thread (tests and
    /// small sites; `build` spreads the per-person work over the cores).
    init(users: [User], hiding hidden: Set<String>) {
        self.init(prepared: Self.prepare(users[...], hiding: hidden))
    }

    /// The directory of `users`, with the work that needs one person at a time (hiding, folding names for the
    /// sort key and the slug, folding the department) done in parallel chunks: it used to run on one core
    /// between the fetch and the render, about a second at 100,000 people. Only short-lived values are made
    /// there: long-lived ones (the phone links each person keeps) made in between them left freed holes that
    /// raised a million-person build's peak by about 100 MiB, so they are made in the final, ordered pass.
    static func build(users: [User], hiding hidden: Set<String>) async -> SiteDirectory {
        let chunkCount = max(1, min(ProcessInfo.processInfo.activeProcessorCount, users.count / 4096))
        guard chunkCount > 1 else { return SiteDirectory(users: users, hiding: hidden) }
        let chunkSize = (users.count + chunkCount - 1) / chunkCount
        var chunks = await withTaskGroup(of: (Int, [PreparedPerson]).self) { group in
            for number in 0..<chunkCount {
                let range = (number * chunkSize)..<min(users.count, (number + 1) * chunkSize)
                group.addTask { (number, prepare(users[range], hiding: hidden)) }
            }
            var done: [[PreparedPerson]] = Array(repeating: [], count: chunkCount)
            for await (number, prepared) in group { done[number] = prepared }
            return done
        }
        var prepared: [PreparedPerson] = []
        prepared.reserveCapacity(users.count)
        for number in chunks.indices {
            prepared += chunks[number]
            chunks[number] = []  // a million people: each chunk goes as soon as it is copied
        }
        return SiteDirectory(prepared: prepared)
    }

    /// Everything about `users` that depends on one person alone; each call folds with its own cache.
    static func prepare(_ users: ArraySlice<User>, hiding hidden: Set<String>) -> [PreparedPerson] {
        var folds = FoldCache()
        return users.map { user in
            let visible = user.hiding(hidden)
            return PreparedPerson(
                user: visible, sortKey: SitePerson.sortKey(for: visible, folds: &folds),
                slugName: Slug.namePart(visible.displayName),
                departmentKey: visible.department.map { folds.base($0) })
        }
    }

    /// Puts prepared people in display order and builds the lookups.
    init(prepared: [PreparedPerson]) {
        var order = Array(prepared.indices)
        order.sort { prepared[$0].sortKey.lexicographicallyPrecedes(prepared[$1].sortKey) }
        let slugs = Slug.assign(nameParts: order.map { prepared[$0].slugName }, ids: order.map { prepared[$0].user.id })
        var departmentsByKey: [String: (name: String, people: [Int])] = [:]
        var people: [SitePerson] = []
        people.reserveCapacity(order.count)
        for (index, position) in order.enumerated() {
            let entry = prepared[position]
            var departmentFile: String?
            if let name = entry.user.department, let key = entry.departmentKey {
                departmentFile = Self.departmentFile(name: name, key: key)
                departmentsByKey[key, default: (name, [])].people.append(index)
            }
            people.append(
                SitePerson(
                    user: entry.user, index: index, slug: slugs[index],
                    letter: SitePerson.letter(forSortKey: entry.sortKey), departmentFile: departmentFile))
        }
        var positionByID: [String: Int] = [:]
        positionByID.reserveCapacity(people.count)
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
                name: value.name, file: Self.departmentFile(name: value.name, key: key),
                sortKey: Array(key.utf8), people: value.people)
        }.sorted { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        self.letters = (Self.letterKeys).compactMap { key in letterPeople[key].map { (key, $0) } }
    }

    /// The page (under `departments/`, without `.html`) of a department spelled `name`, folded to `key`.
    static func departmentFile(name: String, key: String) -> String {
        Slug.namePart(name) + "-" + Slug.idHash(key, length: Slug.hashLength)
    }

    /// Browse letters in page order.
    static let letterKeys: [String] = (0x61...0x7A).map { String(UnicodeScalar(UInt8($0))) } + ["other"]

    /// The label shown for a letter key.
    static func label(forLetter key: String) -> String {
        key == "other" ? "Other" : key.uppercased()
    }
}

/// What one person contributes to the directory before the order is known.
struct PreparedPerson: Sendable {
    /// The user after `hideFields`.
    var user: User
    var sortKey: [UInt8]
    /// The readable part of the slug (`Slug.namePart` of the display name).
    var slugName: String
    /// The folded department, which names its page.
    var departmentKey: String?
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
