import Testing

@testable import OrgDirectory

/// The directory every page is built from: order, slugs, departments and letters must not depend on whether
/// the per-person work ran on one core or was split into chunks.
@Suite("Site directory")
struct SiteDirectoryTests {
    /// A large directory (several chunks) with the awkward cases: a repeated id, ordinary slugs that collide,
    /// departments that differ only in case, managers and reports, people with no surname or department.
    static func users() -> [User] {
        var users = SiteBenchmarkDirectory.users(count: 20_000)
        let twin = User(id: "twin", userPrincipalName: "twin@contoso.com", displayName: "Ada Twin", surname: "Twin")
        users += [twin, twin]
        users.append(
            User(id: "sales-upper", userPrincipalName: "s@contoso.com", displayName: "Zed", department: "SALES"))
        users.append(User(id: "no-names", userPrincipalName: "n@contoso.com", displayName: "’t Hooft"))
        for index in stride(from: 0, to: users.count, by: 7) {
            users[index].manager = ManagerReference(id: users[(index * 31) % users.count].id, displayName: nil)
        }
        var state: UInt64 = 42
        for index in users.indices.reversed() {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            users.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
        }
        return users
    }

    @Test("people made in parallel chunks equal people made in order on one core, each at its position")
    func peopleMadeInParallel() {
        let users = Self.users()
        let prepared = SiteDirectory.prepare(users[...], hiding: [])
        let order = Array(prepared.indices.reversed())
        let slugs = order.map { "slug-\($0)" }
        let letterOf = order.map { UInt8($0 % SiteDirectory.letterKeys.count) }
        let departmentOf = order.map { Int32($0 % 3 == 0 ? -1 : $0 % 5) }
        let departmentFiles = (0..<5).map { $0 == 4 ? nil : "dept-\($0)" }
        let files = departmentOf.map { $0 < 0 ? nil : departmentFiles[Int($0)] }
        let shared = SiteUsers(users.map { $0.hiding(["mail"]) })
        let made = [true, false].map { parallel in
            SiteDirectory.makePeople(
                order: order, prepared: prepared, users: shared, slugs: slugs, letterOf: letterOf,
                departmentOf: departmentOf, departmentFiles: departmentFiles, inParallel: parallel)
        }
        #expect(made[0].map(\.index) == Array(order.indices))
        #expect(made[0].map(\.user) == made[1].map(\.user))
        #expect(made[0].map(\.user) == order.map { users[prepared[$0].source].hiding(["mail"]) })
        #expect(made[0].map(\.slug) == slugs)
        #expect(made[0].map(\.departmentFile) == files)
        #expect(made[0].map(\.letter) == letterOf.map { SiteDirectory.letterKeys[Int($0)] })
        #expect(made[0].map { $0.phones.map(\.link.uri) } == made[1].map { $0.phones.map(\.link.uri) })
    }

    @Test("a directory prepared in parallel chunks equals one prepared on a single core")
    func parallelEqualsSerial() async {
        let users = Self.users()
        let serial = SiteDirectory(users: users, hiding: ["mobilePhone"])
        let parallel = await SiteDirectory.build(users: users, hiding: ["mobilePhone"])
        #expect(parallel.people.count == users.count)
        #expect(parallel.people.map(\.user) == serial.people.map(\.user))
        #expect(parallel.people.map(\.slug) == serial.people.map(\.slug))
        #expect(parallel.people.map(\.letter) == serial.people.map(\.letter))
        #expect(parallel.people.map(\.departmentFile) == serial.people.map(\.departmentFile))
        #expect(parallel.people.map { $0.phones.map(\.link.uri) } == serial.people.map { $0.phones.map(\.link.uri) })
        #expect(parallel.departments.map(\.name) == serial.departments.map(\.name))
        #expect(parallel.departments.map(\.file) == serial.departments.map(\.file))
        #expect(parallel.departments.map(\.people) == serial.departments.map(\.people))
        #expect(parallel.letters.map(\.key) == serial.letters.map(\.key))
        #expect(parallel.letters.map(\.people) == serial.letters.map(\.people))
        #expect(parallel.positionByID.table == serial.positionByID.table)
        #expect(parallel.reportsByManagerID == serial.reportsByManagerID)
        #expect(Set(parallel.people.map(\.slug)).count == users.count, "every slug is unique")
        let twins = parallel.people.filter { $0.user.id == "twin" }.map(\.slug)
        #expect(twins.count == 2 && twins[0] != twins[1] && twins[1].hasSuffix("-2"))
    }

    @Test(
        "each person's manager, its name and the direct reports are found by position as by the ids, unless two share an id"
    )
    func linksByPositionAsByID() throws {
        var users = SiteBenchmarkDirectory.users(count: 3_000)
        for index in stride(from: 0, to: users.count, by: 3) {
            users[index].manager = ManagerReference(id: users[(index * 17) % 50].id, displayName: nil)
        }
        users[1].manager = ManagerReference(id: "not-on-the-site", displayName: "Gone")
        users[2].manager = ManagerReference(id: users[2].id, displayName: nil)
        users[4].manager = ManagerReference(id: users[7].id, displayName: "Named In The Reference")
        users[5].manager = ManagerReference(id: "nowhere", displayName: nil)
        let directory = SiteDirectory(users: users, hiding: [])
        /// What the ids find.
        func byID(_ person: SitePerson) -> (manager: Int?, reports: [Int]) {
            (
                person.user.manager.flatMap { directory.positionByID[$0.id] },
                directory.reportsByManagerID[person.user.id] ?? []
            )
        }
        #expect(directory.people.contains { byID($0).reports.count > 1 }, "some managers")
        #expect(directory.people.contains { $0.user.manager != nil && byID($0).manager == nil }, "one not on the site")
        for person in directory.people {
            #expect(directory.isPlaced(person))
            let manager = directory.manager(of: person)
            let position = manager.position < 0 ? nil : Int(manager.position)
            #expect(position == byID(person).manager && directory.reports(of: person) == byID(person).reports)
            #expect(manager.named == (person.user.manager != nil))
            #expect(manager.name == person.user.manager?.displayName)
            // The name an export row shows: the reference's, else the manager's own record's.
            let reference = person.user.manager
            let named = reference.map {
                $0.displayName ?? byID(person).manager.map { directory.people[$0].user.displayName }
            }
            #expect(SiteExports.managerName(of: person, directory) == named ?? nil)
        }
        // Not the directory's own person at that position: not placed (found by id).
        let manager = try #require(directory.people.first { !byID($0).reports.isEmpty })
        let alone = SitePerson(user: manager.user, index: 0, slug: manager.slug, letter: "a", departmentFile: nil)
        #expect(!directory.isPlaced(alone))
        #expect(directory.manager(of: alone).position == directory.manager(of: manager).position)
        #expect(directory.reports(of: alone) == byID(manager).reports)
        // Two people with one id (`users()` has twins): nobody is placed, and the id is the first twin's in display
        // order. Every manager's reports are in display order.
        let twins = SiteDirectory(users: Self.users(), hiding: [])
        #expect(twins.people.allSatisfy { !twins.isPlaced($0) })
        #expect(twins.positionByID["twin"] == twins.people.firstIndex { $0.user.id == "twin" })
        for directory in [directory, twins] {
            #expect(directory.reportsByManagerID.values.allSatisfy { $0 == $0.sorted() && !$0.isEmpty })
            let expected = Dictionary(
                grouping: directory.people.indices.filter { directory.people[$0].user.manager != nil }
            ) {
                directory.people[$0].user.manager?.id ?? ""
            }
            #expect(directory.reportsByManagerID == expected)
        }
    }

    @Test("people in id order are found by id without a table, and make the site the same people in any order make")
    func peopleInIDOrderFoundByBinarySearch() async throws {
        var users = SiteBenchmarkDirectory.users(count: 12_000)
        // Two more ids whose collision keys are equal, for people of one name: their ordinary slugs collide.
        var seen: [UInt32: String] = [:]
        var pair: (String, String)?
        for number in 0..<100_000 where pair == nil {
            let id = "collide-\(number)"
            if let other = seen.updateValue(id, forKey: Slug.collisionKey(id)) { pair = (other, id) }
        }
        let (first, second) = try #require(pair)
        for id in [first, second] {
            users.append(
                User(id: id, userPrincipalName: "\(id)@contoso.com", displayName: "Ada Same", department: "Sales"))
        }
        for index in stride(from: 0, to: users.count, by: 5) {
            users[index].manager = ManagerReference(id: users[(index * 13) % users.count].id, displayName: nil)
        }
        users[3].extra = ["costCenter": "42"]
        users[9].extra = ["employeeType": "Contractor", "costCenter": "7"]
        let sorted = users.sorted { User.idPrecedes($0.id, $1.id) }
        #expect(Snapshot.isInIDOrder(sorted, repeatsAllowed: false))
        let inOrder = await SiteDirectory.build(users: sorted, hiding: [])
        let shuffled = await SiteDirectory.build(users: users.shuffled(), hiding: [])
        let serial = SiteDirectory(users: sorted, hiding: [])
        let expected = Dictionary(uniqueKeysWithValues: inOrder.people.indices.map { (inOrder.people[$0].user.id, $0) })
        #expect(inOrder.positionByID.table == expected)
        #expect(inOrder.positionByID.count == users.count)
        #expect(sorted.allSatisfy { inOrder.positionByID[$0.id] == expected[$0.id] })
        #expect(inOrder.positionByID["not-on-the-site"] == nil)
        for other in [shuffled, serial] {
            #expect(other.positionByID.table == expected)
            #expect(other.people.map(\.user) == inOrder.people.map(\.user))
            #expect(other.people.map(\.slug) == inOrder.people.map(\.slug))
            #expect(other.people.map(\.letter) == inOrder.people.map(\.letter))
            #expect(other.people.map(\.departmentFile) == inOrder.people.map(\.departmentFile))
            #expect(other.departments.map(\.people) == inOrder.departments.map(\.people))
            #expect(other.lengthenedSlugs == inOrder.lengthenedSlugs)
            #expect(other.reportsByManagerID == inOrder.reportsByManagerID)
            #expect(other.extraColumns == inOrder.extraColumns)
        }
        #expect(inOrder.extraColumns == ["costCenter", "employeeType"], "the exports' extra columns, sorted")
        // The pair's slugs were lengthened, and only theirs.
        let lengthened = inOrder.lengthenedSlugs.map { inOrder.people[$0].user.id }
        #expect(Set(lengthened) == [first, second])
        #expect(lengthened.allSatisfy { id in inOrder.people.first { $0.user.id == id }?.slug.count ?? 0 > 20 })
        #expect(inOrder.people.allSatisfy { inOrder.isPlaced($0) })
    }

    @Test("a department differently spelled is one, named as its first person in display order spells it")
    func departmentNamedByFirstInDisplayOrder() throws {
        // Ids in another order than the names: the directory reads its people in the ids' order.
        let users = [
            User(
                id: "c", userPrincipalName: "z@contoso.com", displayName: "Zoe Zed", surname: "Zed", department: "SALES"
            ),
            User(
                id: "a", userPrincipalName: "m@contoso.com", displayName: "Mia Mid", surname: "Mid", department: "sales"
            ),
            User(
                id: "b", userPrincipalName: "a@contoso.com", displayName: "Ada Able", surname: "Able",
                department: "Sales"),
            User(id: "d", userPrincipalName: "n@contoso.com", displayName: "Ned None", surname: "None"),
        ]
        let directory = SiteDirectory(users: users, hiding: [])
        #expect(directory.people.map(\.user.id) == ["b", "a", "d", "c"])
        let department = try #require(directory.departments.first)
        #expect(directory.departments.count == 1)
        #expect(department.name == "Sales")
        #expect(department.people == [0, 1, 3])
        #expect(directory.people.map(\.departmentFile) == [department.file, department.file, nil, department.file])
        #expect(directory.letters.map(\.key) == ["a", "m", "n", "z"])
        #expect(directory.letters.map(\.people) == [[0], [1], [2], [3]])
    }

    @Test(
        "each person of a directory reads the user they were made from, hidden fields removed, with or without hiding",
        arguments: [Set<String>(), ["mobilePhone", "mail"]])
    func peopleReadTheirOwnUsers(hidden: Set<String>) async {
        let users = Self.users()
        let directory = await SiteDirectory.build(users: users, hiding: hidden)
        var expected: [String: [User]] = [:]
        for user in users { expected[user.id, default: []].append(user.hiding(hidden)) }
        for person in directory.people {
            #expect(expected[person.user.id]?.contains(person.user) == true)
            #expect(hidden.isEmpty || (person.user.mail == nil && person.user.mobilePhone == nil))
        }
        let alone = SitePerson(user: users[0], index: 3, slug: "alone", letter: "a", departmentFile: nil)
        #expect(alone.user == users[0])
        #expect(alone.index == 3)
    }

    @Test("slugs of people whose ordinary slugs collide get a longer hash, whatever the input order")
    func collidingSlugs() {
        let parts = ["ada-lovelace", "ada-lovelace", "grace-hopper"]
        let ids = ["same", "same", "other"]
        let slugs = Slug.assign(nameParts: parts, ids: ids)
        #expect(slugs[0] == "ada-lovelace-" + Slug.idHash("same", length: 16))
        #expect(slugs[1] == slugs[0] + "-2")
        #expect(slugs[2] == "grace-hopper-" + Slug.idHash("other", length: Slug.hashLength))
    }

    @Test("a large directory's order, sorted in two halves at once and merged, is one stable sort of everyone's keys")
    func displayOrderOfHalvesIsOneStableSort() {
        // Many equal keys (the same few names again and again, the twins) make the merge's tie rule matter.
        var users = Self.users()
        let names = ["Ada Twin", "Zed", "’t Hooft", "Ana Ng"]
        for index in stride(from: 0, to: users.count, by: 3) {
            users[index].displayName = names[index % names.count]
            users[index].surname = nil
            users[index].givenName = nil
        }
        let prepared = SiteDirectory.prepare(users[...], hiding: [])
        let order = SiteDirectory.displayOrder(prepared)
        let reference = prepared.indices.sorted { prepared[$0].sortKey.lexicographicallyPrecedes(prepared[$1].sortKey) }
        #expect(prepared.count >= 8192, "large enough to be sorted in halves")
        #expect(order == reference)
        let small = Array(prepared.prefix(100))
        #expect(
            SiteDirectory.displayOrder(small)
                == small.indices.sorted { small[$0].sortKey.lexicographicallyPrecedes(small[$1].sortKey) })
    }

    @Test("the groups of equal collision keys are exactly the keys held more than once, each with all its positions")
    func groupsOfEqualKeys() {
        var generator = SystemRandomNumberGenerator()
        for (count, range) in [(0, UInt32(1)), (1, 1), (2, 1), (5_000, 2_000), (5_000, 1 << 24), (20_000, 3)] {
            let keys = (0..<count).map { _ in UInt32.random(in: 0..<range, using: &generator) }
            let found = Slug.groupsOfEqualKeys(keys)
            let expected = Dictionary(grouping: keys.indices, by: { keys[$0] }).values.filter { $0.count > 1 }
            #expect(Set(found.map { Set($0) }) == Set(expected.map { Set($0) }), "\(count) keys below \(range)")
            #expect(found.map(\.count).reduce(0, +) == expected.map(\.count).reduce(0, +), "each position once")
        }
    }

    @Test("the ids' collision keys worked out beforehand give the same slugs as working them out in the pass")
    func slugsWithCollisionKeys() {
        let parts = ["ada-lovelace", "ada-lovelace", "grace-hopper", "ada-lovelace"]
        let ids = ["same", "same", "other", "third"]
        let ordinary = zip(parts, ids).map { Slug.ordinary(namePart: $0, id: $1) }
        let keyed = Slug.assign(ordinary: ordinary, nameParts: parts, ids: ids, keys: ids.map(Slug.collisionKey))
        #expect(keyed == Slug.assign(ordinary: ordinary, nameParts: parts, ids: ids))
        #expect(keyed == Slug.assign(nameParts: parts, ids: ids))
        #expect(Slug.collisionKey("same") == UInt32(Slug.idHashValue("same") >> 40))
        #expect(Slug.idHash("same", length: 6) == String(Slug.collisionKey("same"), radix: 16).leftPadded(to: 6))
    }
}

extension String {
    /// The string with zeros in front up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
