import Foundation

/// Everyone on the site in display order, with the lookups pages need (slugs by id, reports, departments).
struct SiteDirectory: Sendable {
    /// People sorted by surname (or display name), given name, display name, id.
    let people: [SitePerson]
    /// Each person's search tokens by position, numbered in `tokenTable`, where they were worked out before the
    /// directory (a first build does it while it fetches); nil where the search index works them out itself.
    let searchTokens: [[UInt32]?]
    let tokenTable: SearchTokenTable
    /// Position in `people` by Graph id, to link managers and reports.
    let positionByID: PositionsByID
    /// How many people a first build's prerender wrote files for (`PreparedPerson.wasPrerendered`).
    let prerenderedCount: Int
    /// Positions of each manager's direct reports (by the manager's id), in display order.
    let reportsByManagerID: [String: [Int]]
    /// The same lists by the manager's display position (empty for someone with no reports), and each person's
    /// manager as their record names them (`PlacedManager`); both empty when two people share an id, whose links only
    /// an id can find. Why: a nightly run links everyone to take their page fingerprint and their export row's key,
    /// and by id that hashed two ids a person, each reached in a place of its own, and read the person's record for
    /// the manager twice, in display order where the records lie in another (see `manager(of:)`, `reports(of:)`).
    private let reportsByPosition: [[Int]]
    private let managers: [PlacedManager]

    /// A person's manager as their record names them, and where the manager is on the site: noted for everyone where
    /// the directory reads every record anyway, else worked out from the record by id (`manager(named:)`).
    struct PlacedManager: Sendable {
        /// Whether the record names a manager at all.
        var named = false
        /// The name the record's reference gives, if any.
        var name: String?
        /// The manager's display position, -1 when they are not on the site.
        var position: Int32 = -1

        /// The manager's name as pages and exports show it: the reference's, else the manager's own.
        func displayName(in people: [SitePerson]) -> String? {
            name ?? (position < 0 ? nil : people[Int(position)].user.displayName)
        }
    }
    /// Departments in display order, with the positions of their people.
    let departments: [SiteDepartment]
    /// Letters in order (`a`…`z`, then `other`) with the positions of their people.
    let letters: [(key: String, people: [Int])]
    /// The keys of everyone's `User.extra` (the plist's `select` properties the model has no field for), sorted: the
    /// exports' extra columns. Noted in the lookups' pass, which reads every record anyway: a pass of their own read
    /// each record once more, some 3 samples of a 100,000-person nightly (`Benchmarks/profile-ab.sh`, 2026-11-30).
    let extraColumns: [String]
    /// Display positions of the people whose slug was lengthened because their ordinary one collided with another's
    /// (`Slug.assign`): such a slug can change when someone else joins or leaves. Almost always none. Ascending.
    let lengthenedSlugs: [Int]

    /// Whether the slug of the person at display `position` was lengthened (`lengthenedSlugs`): otherwise it is their
    /// ordinary slug, which follows from their record alone.
    func hasLengthenedSlug(at position: Int) -> Bool {
        guard !lengthenedSlugs.isEmpty else { return false }
        var (low, high) = (0, lengthenedSlugs.count)
        while low < high {
            let middle = (low + high) / 2
            if lengthenedSlugs[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low < lengthenedSlugs.count && lengthenedSlugs[low] == position
    }
    /// Each person's `User.recordDigest` by position, worked out in the parallel preparation; empty above
    /// `digestLimit` people, where `recordDigest(at:)` works one out when asked instead of holding them all.
    let recordDigests: [RenderFingerprint]
    /// Everyone's preparation for the next run's `PreparationCache`, when asked for (`keepingPreparations`) and
    /// the directory is small enough to keep caches (`digestLimit`); nil once taken (`takePreparations`).
    private(set) var preparations: PreparationCache.Made?
    /// How many people took their preparation from the run before's `PreparationCache`.
    let preparedBefore: Int

    /// Everyone's preparation, taken out of the directory, so that whoever saves it can free it while the directory
    /// lives on (see `SiteRenderer.render`'s `savingPreparations`).
    mutating func takePreparations() -> PreparationCache.Made? {
        preparations.take()
    }

    /// Directories up to this size keep everyone's record digest: the search-token cache, the render fingerprints
    /// and the export rows each read it, and hashing every record once per reader was a nightly run's largest
    /// repeated work. Larger ones keep no caches between runs (see `SearchIndexBuilder.numberingLimit`).
    static let digestLimit = 300_000

    /// `User.recordDigest` of the person at `index`.
    func recordDigest(at index: Int) -> RenderFingerprint {
        recordDigests.isEmpty ? people[index].user.recordDigest : recordDigests[index]
    }

    /// The directory of `users` (any order) with `hidden` fields removed, prepared on this thread (tests and
    /// small sites; `build` spreads the per-person work over the cores). People in `early` whose record is
    /// unchanged keep what was prepared for them then; so do people `kept` has (see `prepare`).
    init(
        users: [User], hiding hidden: Set<String>, early: PrerenderedPeople? = nil, kept: KeptPreparations? = nil,
        keepingPreparations: Bool = false
    ) {
        let digests = users.count <= Self.digestLimit
        var writer =
            keepingPreparations && digests ? PreparationWriter(count: users.count, mostlyKept: kept != nil) : nil
        var prepared: [PreparedPerson] = []
        prepared.reserveCapacity(users.count)
        let preparedBefore = Self.prepare(
            users[...], hiding: hidden, early: early, kept: kept, digests: digests, longLived: digests, writer: &writer
        ) { prepared.append($1) }
        self.init(
            prepared: prepared, users: users, hiding: hidden, tokenTable: early?.tokenTable ?? SearchTokenTable(),
            preparations: writer.flatMap {
                PreparationWriter.made(count: users.count, chunks: [$0], source: kept?.cache)
            },
            preparedBefore: preparedBefore, previousCount: kept?.cache.count ?? 0, keptCache: kept?.cache)
    }

    /// The directory of `users`, with the work that needs one person at a time (hiding, folding names for the
    /// sort key and the slug, folding the department) done in parallel chunks: it used to run on one core
    /// between the fetch and the render, about a second at 100,000 people. Only short-lived values are made
    /// there: long-lived ones (the phone links each person keeps) made in between them left freed holes that
    /// raised a million-person build's peak by about 100 MiB, so they are made in the final, ordered pass.
    /// People in `early` (prerendered by a first build) whose record is unchanged keep what was prepared for
    /// them while the build fetched, phone links and search tokens included.
    ///
    /// People `kept` has whose record is the one it was made from keep that preparation too, and with
    /// `keepingPreparations` the directory holds everyone's for the next run (`preparations`).
    static func build(
        users: [User], hiding hidden: Set<String>, early: PrerenderedPeople? = nil, kept: KeptPreparations? = nil,
        keepingPreparations: Bool = false
    ) async -> SiteDirectory {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Eight chunks a core, so neither a chunk that folds slower values nor a core shared meanwhile with other work
        // (a nightly run writes its snapshot while this starts) leaves one core preparing alone at the end. With two a
        // core, a 100,000-person nightly's profiles showed the two cores 81–87 % busy over the preparation's 156–186
        // ms; with eight, 96 % over 147–158 ms (`PROFILE_USERS=100000 Benchmarks/profile-nightly.sh`, three each).
        let chunkCount = max(1, min(8 * cores, users.count / 4096))
        guard chunkCount > 1 else {
            return SiteDirectory(
                users: users, hiding: hidden, early: early, kept: kept, keepingPreparations: keepingPreparations)
        }
        let digests = users.count <= digestLimit
        let longLived = users.count <= parallelPeopleLimit
        let keeping = keepingPreparations && digests && longLived
        // Each chunk prepares its people straight into their places (see `ParallelArray`): appending the chunks'
        // lists to one copied every preparation on one core. Each writes its people's cache entries apart too.
        let ranges = ParallelArray.ranges(count: users.count, chunks: chunkCount)
        let entries = ChunkResults<(writer: PreparationWriter?, keptCount: Int)>(count: ranges.count)
        var prepared = ParallelArray.make(count: users.count, ranges: ranges) { chunk, slots in
            var writer = keeping ? PreparationWriter(count: ranges[chunk].count, mostlyKept: kept != nil) : nil
            let keptCount = prepare(
                users[ranges[chunk]], hiding: hidden, early: early, kept: kept, digests: digests,
                longLived: longLived, writer: &writer
            ) { offset, person in slots.initializeElement(at: offset, to: person) }
            entries.set(chunk, .success((writer, keptCount)))
            return (ranges[chunk].count, true)
        }
        kept?.cache.releasePages()
        var chunks: [PreparationWriter] = []
        var preparedBefore = 0
        entries.drain { chunk in
            if let writer = chunk.writer { chunks.append(writer) }
            preparedBefore += chunk.keptCount
        }
        if prepared == nil {
            prepared = prepare(users[...], hiding: hidden, early: early, digests: digests, longLived: longLived)
            (chunks, preparedBefore) = ([], 0)
        }
        let directory = SiteDirectory(
            prepared: prepared ?? [], users: users, hiding: hidden,
            tokenTable: early?.tokenTable ?? SearchTokenTable(),
            preparations: keeping && chunks.count == ranges.count
                ? PreparationWriter.made(count: users.count, chunks: chunks, source: kept?.cache) : nil,
            preparedBefore: preparedBefore, previousCount: kept?.cache.count ?? 0, keptCache: kept?.cache)
        // Freed as the directory is made, everyone's preparation was some 17 samples of one core between the directory
        // and the render of a 100,000-person nightly run: a process ending with its run keeps it. Not in a first
        // build (people prepared early), whose peak, with its limit, is in the render to come.
        if early == nil { BackgroundRelease.keepIfExiting(prepared) }
        return directory
    }

    /// Everything about `users` that depends on one person alone; each call folds with its own cache. People in
    /// `early` whose record (after hiding, manager aside) is the one prepared then keep that preparation. With
    /// `digests`, each person's record digest too; with `longLived`, their ordinary slugs and phone links (kept
    /// by the site's people, which a large directory makes in order instead: see `build`).
    static func prepare(
        _ users: ArraySlice<User>, hiding hidden: Set<String>, early: PrerenderedPeople? = nil, digests: Bool = false,
        longLived: Bool = false
    ) -> [PreparedPerson] {
        var prepared: [PreparedPerson] = []
        prepared.reserveCapacity(users.count)
        var none: PreparationWriter?
        prepare(users, hiding: hidden, early: early, digests: digests, longLived: longLived, writer: &none) {
            prepared.append($1)
        }
        return prepared
    }

    /// `prepare` handing each person to `made` with their offset in `users`, in order, and adding their cache
    /// entry to `writer`. People `kept` has whose record is the one it was made from (not in `kept.unequal`) take
    /// their entry from there, the bytes copied as they are; returns how many did.
    @discardableResult
    static func prepare(
        _ users: ArraySlice<User>, hiding hidden: Set<String>, early: PrerenderedPeople?,
        kept: KeptPreparations? = nil, digests: Bool, longLived: Bool, writer: inout PreparationWriter?,
        into made: (_ offset: Int, PreparedPerson) -> Void
    ) -> Int {
        var folds = FoldCache()
        var input = FingerprintInput()
        // Kept entries only with a record digest to take (a directory small enough for caches), and never beside a
        // first build's early preparations (a first build has no run before).
        var cursor =
            early == nil && digests
            ? kept.flatMap { kept in users.first.map { PreparationCache.Cursor(kept.cache, from: $0.id) } } : nil
        var unequal = kept.flatMap { kept in users.first.map { KeptPreparations.Unequal(kept.unequal, from: $0.id) } }
        var keptCount = 0
        // The cache bound once: bound from `kept` for each person (`guard let kept`), the whole value was copied, a
        // retain and a release of each of its parts that both cores share; and each person made in place, not
        // copied out of the cache's reader to have their slug key set.
        let keptCache = kept?.cache
        func keptPerson(id: String, at source: Int) -> PreparedPerson? {
            guard let entry = cursor?.entry(for: id), unequal?.contains(id) == false,
                let person = keptCache?.person(at: entry, source: source, slugKey: Slug.collisionKey(id))
            else { return nil }
            if let keptCache { writer?.copy(entry, from: keptCache) }
            keptCount += 1
            return person
        }
        // Borrowed: passed as a value, the record was copied (a retain of every field) for each of a hundred
        // thousand people. Read from the buffer it is still copied once, which is why kept people are found by id
        // first (below) and never get here.
        func prepare(_ visible: borrowing User, at source: Int) -> PreparedPerson {
            var person: PreparedPerson
            var digest: RenderFingerprint?
            let known = early?[visible.id]
            if let known, let preparation = known.early,
                preparation.recordHash == EarlyPreparation.recordHash(of: visible, input: &input)
            {
                person = PreparedPerson(source: source, early: preparation, ordinarySlug: known.slug)
                // The early digest only while the manager is the one it saw: managers' names are filled in after
                // the people arrived. Otherwise the record's bytes are in `input` already.
                if digests {
                    digest = preparation.manager == visible.manager ? preparation.recordDigest : input.fingerprint
                }
            } else {
                person = PreparedPerson(source: source, user: visible, folds: &folds)
            }
            if digests { person.recordDigest = digest ?? visible.recordDigest }
            person.slugKey = Slug.collisionKey(visible.id)
            person.wasPrerendered = known != nil
            // Made here, on every core, rather than in the ordered pass after the sort, where the people and the
            // lookups share the two cores; only below `parallelPeopleLimit`, like everything long-lived made in
            // parallel chunks (see `build`).
            if longLived {
                if person.ordinarySlug == nil {
                    person.ordinarySlug = Slug.ordinary(namePart: person.slugName, id: visible.id)
                }
                if person.phones == nil {
                    person.phones = SitePerson.phones(business: visible.businessPhones, mobile: visible.mobilePhone)
                }
            }
            writer?.add(id: visible.id, person: person)
            return person
        }
        // Records read in place from the buffer when nothing is hidden: `users[source].hiding([])` copied each
        // one (a retain and a release of every field).
        users.withUnsafeBufferPointer { buffer in
            for offset in buffer.indices {
                let source = users.startIndex + offset
                // A kept preparation is found by id alone (hiding never touches the id): the record, passed on, was
                // copied first (a retain and a release of every field) for everyone a nightly run keeps.
                if cursor != nil, let person = keptPerson(id: buffer[offset].id, at: source) {
                    made(offset, person)
                    continue
                }
                made(
                    offset,
                    hidden.isEmpty
                        ? prepare(buffer[offset], at: source) : prepare(buffer[offset].hiding(hidden), at: source))
            }
        }
        return keptCount
    }

    /// Puts prepared people in display order and builds the lookups; `tokenTable` numbers their search tokens.
    ///
    /// `prepared` refers to `users` by position and `hidden` is applied again (cheap) rather than kept: a copy of
    /// every user in the prepared list was about 300 MB at a million people, at the build's peak.
    ///
    /// Between the fetch and the render nothing else runs, so this pass sorts once (comparing sort keys as one
    /// block), then makes the people and the lookups on two cores, reading fields in place (`prepared[i].sortKey`)
    /// and never copying whole entries (a retain of every field each time).
    ///
    /// `keptCache` is the run before's preparations that people `prepared` from it read their phone links from.
    init(
        prepared: [PreparedPerson], users: [User], hiding hidden: Set<String>,
        tokenTable: SearchTokenTable = SearchTokenTable(), preparations: PreparationCache.Made? = nil,
        preparedBefore: Int = 0, previousCount: Int = 0, keptCache: PreparationCache? = nil
    ) {
        self.preparedBefore = preparedBefore
        let order = Self.displayOrder(prepared, previousCount: previousCount)
        // The people share the list they were made from (hidden in one copy when fields are hidden).
        let shared = SiteUsers(hidden.isEmpty ? users : users.map { $0.hiding(hidden) }, preparations: keptCache)
        // The slugs and lists (departments, letters) and the lookups by id need only the order: made side by side,
        // since the lookups alone kept one core busy for a tenth of a second at 100,000 people. Above
        // `parallelPeopleLimit` one after the other: made on two threads they raised a million-person build's peak
        // by about 47 MiB.
        // Each preparation's display index: both passes below read the preparations in their own order and place what
        // they make by it.
        var indexOf = [Int](repeating: 0, count: order.count)
        for (index, position) in order.enumerated() { indexOf[position] = index }
        // Kept for the next run, which starts its display order from its kept people's (`displayOrder`).
        self.preparations = preparations.map { made in
            var made = made
            made.ranks = indexOf.map { UInt32(truncatingIfNeeded: $0) }
            return made
        }
        // The ordinary slugs, letters and departments on one core; the lookups by id and the groups of people whose
        // slugs could collide on the other. Split as the slugs and lists (with the slug collisions) against the lookups
        // alone, the first took 46 samples of a 100,000-person nightly and the second 21, 19 of them a table of
        // everyone's id, and one core waited for the other (`PROFILE_CALL_GRAPH=dwarf Benchmarks/profile-nightly.sh`,
        // 2026-11-29).
        let lists = { @Sendable [indexOf] in
            Self.makeSlugsAndLists(indexOf: indexOf, prepared: prepared, users: shared, hidden: hidden)
        }
        let lookupsByID = { @Sendable [indexOf] in
            Self.makeLookups(indexOf: indexOf, prepared: prepared, users: shared)
        }
        let parallel = order.count <= Self.parallelPeopleLimit
        var (made, lookups) = parallel ? BothAtOnce.run(lists, lookupsByID) : (lists(), lookupsByID())
        // Ordinary slugs that collide lengthened (rarely any): only people whose ids share a collision key
        // (`lookups.slugGroups`, by display index) can have equal ones. Taken out of `made`, so that a lengthened slug
        // is written in place: with a second reference to the list, the first write copied everyone's slug (a retain
        // of each), some 4 samples of a 100,000-person nightly (the sandbox's tenant has three such pairs).
        var slugs: [String] = []
        swap(&slugs, &made.ordinary)
        let all = shared.users
        let lengthened = Slug.lengthen(
            &slugs, groups: lookups.slugGroups, namePart: { prepared[order[$0]].slugName },
            id: { all[prepared[order[$0]].source].id })
        // The people after both, in chunks on every core: made inside `BothAtOnce`, the chunks were a
        // `concurrentPerform` within another, which GCD runs one after the other on the calling thread, and the
        // nightly's other core sat idle for about 50 ms at 100,000 people.
        self.people = Self.makePeople(
            order: order, prepared: prepared, users: shared, slugs: slugs, letterOf: made.letterOf,
            departmentOf: made.departmentOf, departmentFiles: made.departmentFiles, inParallel: parallel)
        self.recordDigests = lookups.recordDigests
        self.searchTokens = lookups.searchTokens
        self.tokenTable = tokenTable
        self.positionByID = lookups.positionByID
        self.prerenderedCount = lookups.prerendered
        self.reportsByManagerID = lookups.reports
        self.reportsByPosition = lookups.placed.reports
        self.managers = lookups.placed.managers
        self.departments = made.departments
        self.letters = made.letterLists
        self.lengthenedSlugs = lengthened
        self.extraColumns = lookups.extraColumns
    }

    /// Everyone's ordinary slug, browse letter (its place in `letterKeys`) and department (its number in
    /// `departmentFiles`, -1 for none) by display index, and the letters' and departments' lists.
    private static func makeSlugsAndLists(
        indexOf: [Int], prepared: [PreparedPerson], users: SiteUsers, hidden: Set<String>
    ) -> (
        ordinary: [String], letterOf: [UInt8], letterLists: [(key: String, people: [Int])], departmentOf: [Int32],
        departments: [SiteDepartment], departmentFiles: [String?]
    ) {
        // Read from the preparations in their own order (the users'), each result placed at the person's display
        // index: walked in display order, every preparation was in a place of its own, some 15 of 1,000 samples of a
        // nightly (`Benchmarks/profile-nightly.sh`).
        let count = indexOf.count
        var ordinary = [String](repeating: "", count: count)
        var letterOf = [UInt8](repeating: 0, count: count)
        var letterCounts = [Int](repeating: 0, count: Self.letterKeys.count)
        // Departments by folded key: one lookup a person, the lists kept by number, each with who names it (a
        // department keeps the spelling of its first person in display order) and how many people it has.
        var departmentNumbers: [String: Int] = [:]
        var departmentList: [(key: String, size: Int, namedBy: (index: Int, source: Int))] = []
        var departmentOf = [Int32](repeating: -1, count: count)
        let departmentHidden = hidden.contains("department")
        let all = users.users
        prepared.withUnsafeBufferPointer { prepared in
            for position in prepared.indices {
                let index = indexOf[position]
                let source = prepared[position].source
                ordinary[index] =
                    prepared[position].ordinarySlug
                    ?? Slug.ordinary(namePart: prepared[position].slugName, id: all[source].id)
                let slot = prepared[position].letterSlot
                letterOf[index] = slot
                letterCounts[Int(slot)] += 1
                // The folded key says whether there is a department (it is the department folded).
                guard !departmentHidden, let key = prepared[position].departmentKey else { continue }
                if let number = departmentNumbers[key] {
                    if index < departmentList[number].namedBy.index { departmentList[number].namedBy = (index, source) }
                    departmentList[number].size += 1
                    departmentOf[index] = Int32(number)
                } else {
                    departmentNumbers[key] = departmentList.count
                    departmentOf[index] = Int32(departmentList.count)
                    departmentList.append((key, 1, (index, source)))
                }
            }
        }
        // The lists filled in display order from the letters noted above, so they need no sort, each made as large as
        // it ends: grown as they filled, each was copied into fresh memory some 17 times (`Array.append`'s growth, 8
        // of the 46 samples of this pass with the lookups, `PROFILE_CALL_GRAPH=dwarf Benchmarks/profile-nightly.sh`).
        var letterPeople = letterCounts.map { count in
            var people: [Int] = []
            people.reserveCapacity(count)
            return people
        }
        for index in 0..<count { letterPeople[Int(letterOf[index])].append(index) }
        let letterLists = Self.letterKeys.indices.compactMap { slot in
            letterPeople[slot].isEmpty ? nil : (Self.letterKeys[slot], letterPeople[slot])
        }
        let departments = makeDepartments(departmentList, departmentOf: departmentOf, users: all)
        return (ordinary, letterOf, letterLists, departmentOf, departments.list, departments.files)
    }

    /// What the directory looks up by position or id: search tokens and record digests by position, positions
    /// by id (the first person with an id keeps it), each manager's reports in display order, the groups of display
    /// indices whose ids share a slug collision key (`Slug.groupsOfEqualKeys`), and the extra columns. Reads fields in
    /// place, never copying a person's whole record.
    private static func makeLookups(indexOf: [Int], prepared: [PreparedPerson], users: SiteUsers) -> (
        searchTokens: [[UInt32]?], recordDigests: [RenderFingerprint], positionByID: PositionsByID,
        reports: [String: [Int]], placed: (reports: [[Int]], managers: [PlacedManager]), prerendered: Int,
        slugGroups: [[Int]], extraColumns: [String]
    ) {
        let count = indexOf.count
        let all = users.users
        // People made from users strictly in id order, each at their own place: found by binary search of the ids
        // (`PositionsByID`), with no table of them.
        let sorted =
            prepared.count == all.count
            && prepared.withUnsafeBufferPointer { prepared in prepared.indices.allSatisfy { prepared[$0].source == $0 }
            }
            && Snapshot.isInIDOrder(all, repeatsAllowed: false)
        var searchTokens = [[UInt32]?](repeating: nil, count: count)
        var table: [String: Int] = [:]
        if !sorted { table.reserveCapacity(count) }
        var reports: [String: [Int]] = [:]
        var prerendered = 0
        // The digests in the same pass: a pass of their own reached each person's preparation once more, in a place
        // of its own, for everyone.
        var digests = [RenderFingerprint](repeating: RenderFingerprint(high: 0, low: 0), count: count)
        var digestCount = 0
        var managers = [PlacedManager](repeating: PlacedManager(), count: count)
        var extraKeys = Set<String>()
        // In the preparations' order (the users'), each person's display index looked up: walked in display order,
        // every preparation and record was in a place of its own, about 29 of 1,000 samples of a nightly
        // (`Benchmarks/profile-nightly.sh`); this way both are read front to back, and only the results are placed.
        prepared.withUnsafeBufferPointer { prepared in
            all.withUnsafeBufferPointer { all in
                for position in prepared.indices {
                    let index = indexOf[position]
                    searchTokens[index] = prepared[position].searchTokens
                    if prepared[position].wasPrerendered { prerendered += 1 }
                    if let digest = prepared[position].recordDigest {
                        digests[index] = digest
                        digestCount += 1
                    }
                    let user = prepared[position].source
                    if !sorted {
                        // The first in display order keeps an id two people share.
                        let id = all[user].id
                        if let known = table[id] {
                            if index < known { table[id] = index }
                        } else {
                            table[id] = index
                        }
                    }
                    if let manager = all[user].manager {
                        reports[manager.id, default: []].append(index)
                        managers[index] = PlacedManager(named: true, name: manager.displayName)
                    }
                    if !all[user].extra.isEmpty { extraKeys.formUnion(all[user].extra.keys) }
                }
            }
        }
        let positionByID =
            sorted ? PositionsByID(sortedUsers: all, positions: indexOf) : PositionsByID(table: table)
        // Each manager's reports in display order.
        for slot in reports.values.indices { reports.values[slot].sort() }
        // By position too, when every id is one person's: a lookup per manager here, not two per person later. A
        // manager on the site is the manager of exactly the people in their list of reports.
        var placed: (reports: [[Int]], managers: [PlacedManager]) = ([], [])
        if positionByID.count == count {
            placed = (Array(repeating: [], count: count), managers)
            for (manager, list) in reports {
                guard let position = positionByID[manager] else { continue }
                placed.reports[position] = list
                for report in list { placed.managers[report].position = Int32(truncatingIfNeeded: position) }
            }
        }
        let slugGroups = Slug.groupsOfEqualKeys(count: prepared.count) { prepared[$0].slugKey }.map { group in
            group.map { indexOf[$0] }
        }
        return (
            searchTokens, digestCount == count ? digests : [], positionByID, reports, placed, prerendered, slugGroups,
            extraKeys.sorted()
        )
    }

    /// The departments numbered in `list` (folded key, number of people, and who names it), sorted for the site, and
    /// each number's page (nil for a department whose naming record has none, which a hidden field can make).
    private static func makeDepartments(
        _ list: [(key: String, size: Int, namedBy: (index: Int, source: Int))], departmentOf: [Int32], users: [User]
    ) -> (list: [SiteDepartment], files: [String?]) {
        // Each department's people in display order, from the numbers noted by display index, so they need no sort,
        // each list made as large as it ends.
        var people = list.map { department in
            var people: [Int] = []
            people.reserveCapacity(department.size)
            return people
        }
        for index in departmentOf.indices where departmentOf[index] >= 0 {
            people[Int(departmentOf[index])].append(index)
        }
        // The record is read only for each department's name, from the person who names it (a record with a folded
        // department key has a department); the file depends on the folded key alone, worked out once per department.
        var files: [String?] = []
        files.reserveCapacity(list.count)
        var departments: [SiteDepartment] = []
        for (number, department) in list.enumerated() {
            guard let name = users[department.namedBy.source].department else {
                files.append(nil)
                continue
            }
            let file = Self.departmentFile(name: name, key: department.key)
            files.append(file)
            departments.append(
                SiteDepartment(name: name, file: file, sortKey: Array(department.key.utf8), people: people[number]))
        }
        departments.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        return (departments, files)
    }

    /// `person`'s manager: as placed by their display position when they are the directory's person there
    /// (`isPlaced`), else from their record by id.
    func manager(of person: SitePerson) -> PlacedManager {
        isPlaced(person) ? managers[person.index] : manager(named: person.user.manager)
    }

    /// The name `person`'s manager has on the site when their record's reference gives none (the manager's own, or
    /// nil when the manager is not on the site); nil too when the reference gives a name (or there is no manager),
    /// which the record itself then holds. What an export row shows beyond the record (`ExportRows.rowKey`): the
    /// reference's name is looked at in place, never copied out (a retain of a string a person, most of them cold).
    func managerNameOutsideRecord(of person: SitePerson) -> String? {
        guard isPlaced(person) else {
            guard let reference = person.user.manager, reference.displayName == nil else { return nil }
            return manager(named: reference).displayName(in: people)
        }
        let position = managers.withUnsafeBufferPointer { managers -> Int32? in
            guard managers[person.index].named, case .none = managers[person.index].name else { return nil }
            return managers[person.index].position
        }
        guard let position, position >= 0 else { return nil }
        return people[Int(position)].user.displayName
    }

    /// The manager a record's `reference` names, found on the site by id.
    func manager(named reference: ManagerReference?) -> PlacedManager {
        guard let reference else { return PlacedManager() }
        let position = positionByID[reference.id].map { Int32(truncatingIfNeeded: $0) } ?? -1
        return PlacedManager(named: true, name: reference.displayName, position: position)
    }

    /// The display positions of `person`'s direct reports: by their display position when they are the directory's
    /// person there (`isPlaced`), else by id.
    func reports(of person: SitePerson) -> [Int] {
        isPlaced(person) ? reportsByPosition[person.index] : reportsByManagerID[person.user.id] ?? []
    }

    /// Whether every id is one person's, so that what the directory finds by id it can keep by display position.
    var placesByPosition: Bool { reportsByPosition.count == people.count }

    /// Whether `person` is this directory's own person at their display position (not one made alone) and the
    /// directory places by position: what it keeps by that position is theirs.
    func isPlaced(_ person: SitePerson) -> Bool {
        placesByPosition && Self.isOwn(person, in: people)
    }

    /// Whether `person` is the one at their display position in `people`: the check under everything found by
    /// position (`isPlaced`, and `SiteHistory.placed(in:)`, which keeps the people alone: a whole directory copied for
    /// each page's lookup was a retain of each of its lists, on both cores).
    static func isOwn(_ person: SitePerson, in people: [SitePerson]) -> Bool {
        people.indices.contains(person.index) && people[person.index] === person
    }

    /// Directories up to this size make their `SitePerson`s on every core. Larger ones make them in order on one:
    /// long-lived values made in parallel chunks leave freed holes between them, which raised a million-person
    /// build's peak by about 100 MiB (see `build`).
    static let parallelPeopleLimit = 300_000

    /// Everyone's `SitePerson` in display order: their user in `users` (already hidden), the slug, the letter (its
    /// place in `letterKeys`) and the department (its number in `departmentFiles`, -1 for none) worked out before,
    /// and the phone links (made here unless prepared early); in chunks on every core when `inParallel` and there are
    /// enough people. Why numbers: lists of everyone's letter and department page, made for this alone, were some
    /// 3 MB of fresh memory at 100,000 people.
    static func makePeople(
        order: [Int], prepared: [PreparedPerson], users: SiteUsers, slugs: [String], letterOf: [UInt8],
        departmentOf: [Int32], departmentFiles: [String?], inParallel: Bool
    ) -> [SitePerson] {
        @Sendable func person(_ index: Int) -> SitePerson {
            let position = order[index]
            let department = departmentOf[index]
            return SitePerson(
                users: users, at: prepared[position].source, index: index, slug: slugs[index],
                letter: letterKeys[Int(letterOf[index])],
                departmentFile: department < 0 ? nil : departmentFiles[Int(department)],
                phones: prepared[position].phones, keptPhones: prepared[position].keptPhones)
        }
        let chunkCount = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 4, order.count / 4096))
        guard chunkCount > 1, inParallel else { return order.indices.map(person) }
        // Each chunk makes its people in their places in the result (see `ParallelArray`).
        let ranges = ParallelArray.ranges(count: order.count, chunks: chunkCount)
        let made = ParallelArray.make(count: order.count, ranges: ranges) { chunk, slots in
            for (slot, index) in ranges[chunk].enumerated() { slots.initializeElement(at: slot, to: person(index)) }
            return (ranges[chunk].count, true)
        }
        return made ?? order.indices.map(person)
    }

    /// Positions in `prepared` in display order: by sort key, compared as bytes of one contiguous block. A large
    /// list is sorted in two halves at once and merged: the sort was 50 ms of one core at 100,000 people while
    /// the other waited, between the fetch and the render.
    static func displayOrder(_ prepared: [PreparedPerson]) -> [Int] {
        ByteKeyOrder(count: prepared.count) { index, block in block += prepared[index].sortKey }.sortedPositions()
    }

    /// `displayOrder(_:)`, started from the run before's order when at least half the people kept their preparation
    /// from it (`previousRank`, of the run's `previousCount` people): their sort keys and their order by id are what
    /// they were, so they are in the order they had then. Only the others are sorted, and each is put among them by a
    /// binary search.
    ///
    /// Why: the sort of everyone's keys was some 20 of a 100,000-person nightly's 748 samples, on both cores, in the
    /// directory's stretch (`Benchmarks/profile-nightly.sh`, 2026-11-29), for the 1 % whose key could have moved.
    static func displayOrder(_ prepared: [PreparedPerson], previousCount: Int) -> [Int] {
        guard let (kept, others) = keptOrder(prepared, previousCount: previousCount) else {
            return displayOrder(prepared)
        }
        let sortedOthers = ByteKeyOrder(count: others.count) { [others] index, block in
            block += prepared[others[index]].sortKey
        }.sortedPositions().map { others[$0] }
        var order: [Int] = []
        order.reserveCapacity(prepared.count)
        var next = 0
        for other in sortedOthers {
            // The first kept person who comes after `other` (by key, then by position), from where the last one went.
            var (low, high) = (next, kept.count)
            while low < high {
                let middle = (low + high) / 2
                if displayPrecedes(kept[middle], other, in: prepared) { low = middle + 1 } else { high = middle }
            }
            order += kept[next..<low]
            order.append(other)
            next = low
        }
        order += kept[next...]
        assert(order == displayOrder(prepared), "the kept display order must be the one a whole sort gives")
        return order
    }

    /// The positions of the people who kept their preparation, in their order of the run before, and the others' in
    /// ascending order, from one pass over everyone; nil when fewer than half kept theirs, or when the ranks are not
    /// each a different one below `previousCount` (a damaged file).
    static func keptOrder(_ prepared: [PreparedPerson], previousCount: Int) -> (kept: [Int], others: [Int])? {
        guard previousCount > 0 else { return nil }
        var byRank = [Int](repeating: -1, count: previousCount)
        var others: [Int] = []
        for position in prepared.indices {
            guard let rank = prepared[position].previousRank.map(Int.init) else {
                others.append(position)
                continue
            }
            guard rank < previousCount, byRank[rank] < 0 else { return nil }
            byRank[rank] = position
        }
        guard (prepared.count - others.count) * 2 >= prepared.count else { return nil }
        return (byRank.filter { $0 >= 0 }, others)
    }

    /// Whether the person at `left` comes before the one at `right` in display order: by sort key, then by position.
    private static func displayPrecedes(_ left: Int, _ right: Int, in prepared: [PreparedPerson]) -> Bool {
        let order = prepared[left].sortKey.withUnsafeBytes { leftKey in
            prepared[right].sortKey.withUnsafeBytes { rightKey in ByteOrder.compare(leftKey, rightKey) }
        }
        return order != 0 ? order < 0 : left < right
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
    /// The user's position in the list the directory is made from (before `hideFields`).
    var source: Int
    /// Set once, by the initializers, with `letterSlot`.
    private(set) var sortKey: [UInt8]
    /// The readable part of the slug (`Slug.namePart` of the display name).
    var slugName: String
    /// The folded department, which names its page.
    var departmentKey: String?
    /// `Slug.ordinary(namePart: slugName, id:)`, when worked out early.
    var ordinarySlug: String?
    /// `Slug.collisionKey` of the id: worked out here, on every core, for `Slug.assign`'s ordered pass.
    var slugKey: UInt32 = 0
    /// Whether a first build's prerender wrote this person's files (`PrerenderedPeople` has the id).
    var wasPrerendered = false
    /// The person's display position in the run before, when their preparation was kept from it
    /// (`PreparationCache.rank(of:)`): their sort key is the one they had then.
    var previousRank: UInt32?
    /// The browse letter's place in `SiteDirectory.letterKeys` (27 of them), from the sort key
    /// (`SitePerson.letterSlot`). Worked out where the key is made or read: the ordered pass reached each person's key
    /// in a place of its own for it, once a person, in display order (18 of some 1,100 samples of a 100,000-person
    /// nightly, `Benchmarks/profile-nightly.sh`). A byte beside the flag above, where the entry had room to spare.
    private(set) var letterSlot: UInt8
    /// The phone links (`SitePerson.phones`), when worked out early; otherwise the ordered pass makes them (long-
    /// lived values made in parallel chunks fragment the heap of a million-person build).
    var phones: [(label: String, link: TelephoneLink)]?
    /// Where the phone links lie in the run before's `PreparationCache` when the preparation was kept from it (-1
    /// otherwise): read from there only when asked for (`SitePerson.phones`), as few of a night's people are.
    var keptPhones = -1
    /// The search tokens numbered in the directory's token table, when worked out early; otherwise the search
    /// index makes them.
    var searchTokens: [UInt32]?
    /// `User.recordDigest` of the user after hiding, when the directory keeps them (`SiteDirectory.digestLimit`).
    var recordDigest: RenderFingerprint?

    /// The preparation of `user` (after hiding), found at `source`, that any build does.
    init(source: Int, user: borrowing User, folds: inout FoldCache) {
        self.source = source
        (sortKey, slugName, departmentKey) = Self.keys(of: user, folds: &folds)
        letterSlot = SitePerson.letterSlot(forSortKey: sortKey)
    }

    /// The sort key, slug part and folded department of `user`, as every preparation (early or not) makes them.
    static func keys(of user: User, folds: inout FoldCache) -> (
        sortKey: [UInt8], slugName: String, departmentKey: String?
    ) {
        let foldedName = folds.base(user.displayName)
        return (
            SitePerson.sortKey(for: user, foldedName: foldedName, folds: &folds), Slug.namePart(folded: foldedName),
            user.department.map { folds.base($0) }
        )
    }

    /// The user at `source` as a run before prepared them (`PreparationCache`).
    init(
        source: Int, sortKey: [UInt8], slugName: String, departmentKey: String?, ordinarySlug: String,
        keptPhones: Int, recordDigest: RenderFingerprint, slugKey: UInt32
    ) {
        self.source = source
        self.slugKey = slugKey
        self.sortKey = sortKey
        self.letterSlot = SitePerson.letterSlot(forSortKey: sortKey)
        self.slugName = slugName
        self.departmentKey = departmentKey
        self.ordinarySlug = ordinarySlug
        self.keptPhones = keptPhones
        self.recordDigest = recordDigest
    }

    /// The user at `source` with what a first build worked out for them while it fetched (and the ordinary slug
    /// it used).
    init(source: Int, early: EarlyPreparation, ordinarySlug: String) {
        self.source = source
        self.ordinarySlug = ordinarySlug
        sortKey = early.sortKey
        letterSlot = SitePerson.letterSlot(forSortKey: early.sortKey)
        slugName = early.slugName
        departmentKey = early.departmentKey
        phones = early.phones
        searchTokens = early.searchTokens
    }
}

/// Remembers folded values: given names, surnames and departments repeat thousands of times.
struct FoldCache {
    /// Keyed by bytes (`UTF8Key`): these values are beyond ASCII, which a `String` key normalizes on every lookup.
    private var bases: [UTF8Key: String] = [:]

    /// The base fold of `text`, computed once per distinct value; a value of several words beyond ASCII (a display
    /// name) is folded word by word, since its words repeat where the whole rarely does (so the whole is never
    /// looked up: it is never kept).
    mutating func base(_ text: String) -> String {
        // An ASCII value folds to its lowercase (`SearchFolding.fold`): one pass, where a lookup hashed and
        // compared the whole value (most names and departments are ASCII, and at most 15 bytes need no allocation).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        if let parts = SearchFolding.spaceSeparatedParts(ofNonASCII: text) {
            return parts.map { base($0) }.joined(separator: " ")
        }
        let key = UTF8Key(text)
        if let known = bases[key] { return known }
        let folded = SearchFolding.fold(text).base
        if bases.count < 200_000 { bases[key] = folded }
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
