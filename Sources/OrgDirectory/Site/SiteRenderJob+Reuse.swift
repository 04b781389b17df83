/// Person pages on a nightly run: people whose render fingerprint matches the published site's are carried
/// over without rendering; everyone else goes through the ordinary per-person render.
extension SiteRenderJob {
    /// What one chunk of people produced: the files, each person's fingerprint, and how many were rendered.
    struct PeopleChunk: Sendable {
        /// Position of the chunk's first person.
        var start = 0
        /// The files of the chunk's people, when asked for (see `renderPeople`'s `listingPaths`).
        var paths: [String] = []
        /// How many files the chunk's people have.
        var fileCount = 0
        var fingerprints: [RenderFingerprints.Entry] = []
        var rendered = 0
        var reused = 0
        /// Of `rendered`, people whose prerendered files were kept.
        var prerendered = 0
        /// People whose fingerprint was carried from `previous` (no change reached their page) instead of taken.
        var carried = 0
    }

    /// `people/<slug>.md`, `.html` and `.vcf` for the people in `range`, keeping the files prerendered for
    /// everyone whose fingerprint equals the one in `prerendered`, and reusing the published files of everyone
    /// whose fingerprint equals the one in `previous`: left where they are when `output` already holds them
    /// (its own fingerprint in `inPlace` matches too), else carried over when `output` can. `previous` and
    /// `inPlace` are by display position (`RenderFingerprints.byPosition`). The chunk lists the
    /// files' paths only with `listingPaths`: a nightly run keeps most people as they are, and naming their three
    /// files each only to count them was some 300,000 strings made and freed.
    ///
    /// With `omittingCopiedIDs` (the render's fingerprint file copies the lines of the site `inPlace` describes, see
    /// `RenderFingerprints.LineSource`), the fingerprints of people whose fingerprint is `inPlace`'s carry no id.
    ///
    /// With `reached` (by display position, `PageReach.reached(in:)`), the fingerprint of a person no change reached
    /// is `previous`'s, carried rather than taken again; debug builds take it anyway and stop where the two differ.
    func renderPeople(
        _ range: Range<Int>, reusing previous: [RenderFingerprint?]?, inPlace: [RenderFingerprint?]? = nil,
        reached: [Bool]? = nil, prerendered: PrerenderedPeople? = nil, site: RenderFingerprint,
        listingPaths: Bool = true, omittingCopiedIDs: Bool = false, to output: some SiteOutput
    ) throws(SiteError) -> PeopleChunk {
        var chunk = PeopleChunk(start: range.lowerBound)
        if listingPaths { chunk.paths.reserveCapacity(range.count * 3) }
        // A kept person's files are named only when listed; a rendered person's are known anyway.
        func count(_ files: @autoclosure () -> [String]) {
            chunk.fileCount += Self.filesPerPerson
            if listingPaths { chunk.paths += files() }
        }
        chunk.fingerprints.reserveCapacity(range.count)
        var input = FingerprintInput()
        // Whether `output` leaves files in place is asked once, and the files left are counted once for the chunk:
        // counted a person at a time, the output's lock was taken a hundred thousand times from both cores, 2 to 9
        // of a nightly's some 860 samples.
        let keepsInPlace = inPlace != nil && output.keepsInPlace
        var keptInPlace = 0
        defer { if keptInPlace > 0 { _ = output.keepInPlace(fileCount: keptInPlace) } }
        /// The fingerprint of the person at `position`, taken.
        func takeFingerprint(of person: SitePerson, at position: Int, links: PersonLinks) -> RenderFingerprint {
            input.reset()
            addFingerprintInput(
                of: person, recordDigest: directory.recordDigest(at: position), links: links, site: site, to: &input)
            return input.fingerprint
        }
        #if DEBUG
            /// Stops where a fingerprint carried because no change reached the person is not the one taken again: the
            /// reach (`PageReach`) missed a change, and the page would keep what it showed.
            func checkCarried(_ carried: RenderFingerprint, at position: Int) {
                let person = directory.people[position]
                let taken = takeFingerprint(of: person, at: position, links: PersonLinks(of: person, in: directory))
                if taken != carried {
                    assertionFailure("no change reached \(person.user.id)'s page, but its fingerprint changed")
                }
            }
        #endif
        for position in range {
            // A carried fingerprint whose person's files stay in place and whose line the fingerprint file copies
            // reaches nothing of the person: for most of a nightly run's people, their object, id and slug would be
            // first touches (cache misses, retains) for nothing.
            if let reached, !reached[position], let carried = previous?[position], inPlace?[position] == carried,
                keepsInPlace && omittingCopiedIDs && prerendered == nil
            {
                #if DEBUG
                    checkCarried(carried, at: position)
                #endif
                chunk.carried += 1
                chunk.fingerprints.append((nil, carried, nil))
                keptInPlace += Self.filesPerPerson
                count(Self.personFiles(slug: directory.people[position].slug))
                chunk.reused += 1
                continue
            }
            let person = directory.people[position]
            let fingerprint: RenderFingerprint
            // Made only for a fingerprint taken or a page rendered: a carried one needs no links.
            var madeLinks: PersonLinks?
            func links() -> PersonLinks {
                if let madeLinks { return madeLinks }
                let links = PersonLinks(of: person, in: directory)
                madeLinks = links
                return links
            }
            if let reached, !reached[position], let carried = previous?[position] {
                #if DEBUG
                    checkCarried(carried, at: position)
                #endif
                fingerprint = carried
                chunk.carried += 1
            } else {
                fingerprint = takeFingerprint(of: person, at: position, links: links())
            }
            let copied = omittingCopiedIDs && inPlace?[position] == fingerprint
            chunk.fingerprints.append(copied ? (nil, fingerprint, nil) : (person.user.id, fingerprint, person.slug))
            if let early = prerendered?[person.user.id] {
                if early.fingerprint == fingerprint {
                    count(Self.personFiles(slug: person.slug))
                    chunk.rendered += 1
                    chunk.prerendered += 1
                    continue
                }
                try remove(Self.personFiles(slug: early.slug), from: output)
            }
            if let previous, previous[position] == fingerprint {
                let kept = keepsInPlace && inPlace?[position] == fingerprint
                if kept { keptInPlace += Self.filesPerPerson }
                if kept || output.carryOver(Self.personFiles(slug: person.slug)) {
                    count(Self.personFiles(slug: person.slug))
                    chunk.reused += 1
                    continue
                }
            }
            let before = chunk.paths.count
            try renderPerson(person, links: links(), to: output, paths: &chunk.paths)
            chunk.fileCount += chunk.paths.count - before
            if !listingPaths { chunk.paths.removeAll(keepingCapacity: true) }
            chunk.rendered += 1
        }
        return chunk
    }

    /// How many files a person has (`personFiles`).
    static let filesPerPerson = 3

    /// The three files of the person with `slug`.
    static func personFiles(slug: String) -> [String] {
        let base = "people/\(slug)"
        return [base + ".md", base + ".html", base + ".vcf"]
    }

    /// True when `path` is one of the person files (`personFiles`) of a slug in `slugs`. Looked at byte by
    /// byte: it runs for each of some 300,000 files when a nightly run sweeps the recycled site.
    static func isPersonFile(_ path: String, slugs: Set<String>) -> Bool {
        let bytes = path.utf8
        let folder = "people/".utf8
        guard bytes.starts(with: folder), let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let slugStart = bytes.index(bytes.startIndex, offsetBy: folder.count)
        guard slugStart < dot else { return false }
        let suffix = bytes[dot...]
        let known = [".md", ".html", ".vcf"].contains { suffix.elementsEqual($0.utf8) }
        guard known else { return false }
        return slugs.contains(String(path[slugStart..<dot]))
    }

    /// Removes from a recycled `output` the files in `people/` that are no person's of `directory`: the files of
    /// the slugs `inPlace` (the fingerprints of the site `output` started as) names stale, else whatever the
    /// folder holds beyond everyone's. Run beside the rendering: no file it removes is written by this run.
    ///
    /// With `merged` (`inPlace`'s lines by display position, from the render's own merge of them), the stale slugs
    /// are found from there, without merging again, and the slug of anyone `sameSlug` vouches for is not compared.
    func removeStalePeople(
        from output: some SiteOutput, inPlace: RenderFingerprints?, idOrder: [Int]? = nil,
        merged: RenderFingerprints.LineSource? = nil, sameSlug: (Int) -> Bool = { _ in false }
    ) throws(SiteError) {
        let found =
            merged.flatMap { inPlace?.staleSlugs(in: directory, merged: $0, sameSlug: sameSlug) }
            ?? inPlace?.staleSlugs(in: directory, idOrder: idOrder)
        if let stale = found {
            for slug in stale { try remove(Self.personFiles(slug: slug), from: output) }
            return
        }
        let slugs = Set(directory.people.map(\.slug))
        do {
            try output.removeStale(in: "people", skipping: []) { Self.isPersonFile($0, slugs: slugs) }
        } catch {
            throw SiteError.writing("people", error)
        }
    }

    /// Removes the prerendered files of people who are not in the final directory (the rules or the manager
    /// names changed who is listed, or a record arrived twice).
    func removePrerendered(
        _ prerendered: PrerenderedPeople, missingFrom directory: SiteDirectory, in output: some SiteOutput
    ) throws(SiteError) {
        // With every id once in the directory and as many of its people prerendered as were, every prerendered
        // id is in it: the check of each (a lookup by id, 40 ms of one core at 100,000 people) is skipped.
        let idsUnique = directory.positionByID.count == directory.people.count
        if idsUnique && directory.prerenderedCount == prerendered.count { return }
        for (id, early) in prerendered.indexed where directory.positionByID[id] == nil {
            try remove(Self.personFiles(slug: early.slug), from: output)
        }
    }

    private func remove(_ paths: [String], from output: some SiteOutput) throws(SiteError) {
        for path in paths {
            do {
                try output.remove(path)
            } catch {
                throw SiteError.writing(path, error)
            }
        }
    }

    /// The site-wide inputs of every person page: format and orgdir version, the running build and cmark-gfm
    /// (a rebuilt binary or an upgraded library may render differently), the options a person page shows
    /// (title, exports in the layout, hidden fields) and the template set. Their digest is what every person's
    /// input starts with: the inputs themselves are a few hundred bytes, hashed again for every person twice in a
    /// first build.
    static func siteFingerprint(options: SiteOptions, templates: TemplateSet) -> RenderFingerprint {
        var input = FingerprintInput()
        input.add("orgdir-person-files/4")
        input.add(OrgDirVersion.current)
        input.add(ExecutableIdentity.current)
        input.add(Markdown.libraryVersion)
        input.add(options.title)
        input.add(options.exports.map(\.rawValue).sorted().joined(separator: ","))
        input.add(options.hideFields.sorted().joined(separator: "\n"))
        input.add(templates.fingerprint.hex)
        return input.fingerprint
    }

    /// Everything `renderPerson` reads for `person` with `links`, in a fixed order: the record after hiding (by its
    /// digest, `recordDigest`, which the directory worked out once for every reader), slug and department page,
    /// stamp (as the whole seconds its texts show), the manager's resolved name and link, the reports' names, links
    /// and titles, and the person's history lines. A change to any of them (a manager renamed, a report added, a slug
    /// lengthened by a new collision) changes the fingerprint; anything else leaves it as it was.
    func addFingerprintInput(
        of person: SitePerson, recordDigest: RenderFingerprint, links: PersonLinks, site: RenderFingerprint,
        to input: inout FingerprintInput
    ) {
        input.add(site)
        input.add(recordDigest)
        input.add(person.slug)
        input.add(person.departmentFile)
        let found = history.person(person)
        let events = found.events
        input.add(SiteStamp.seconds(stampDate(of: found)))
        if let manager = links.manager {
            input.add(true)
            input.add(manager.name)
            input.add(manager.slug)
        } else {
            input.add(false)
        }
        input.add(links.reports.count)
        for report in links.reports {
            input.add(report.name)
            input.add(report.slug)
            input.add(report.jobTitle)
        }
        input.add(events.count)
        for event in events {
            input.add(event.kind.rawValue)
            let night = history.nightBySnapshot[event.snapshot]
            input.add(night?.stamp.day)
            input.add(night?.file)
            input.add(event.fieldChanges.count)
            for change in event.fieldChanges {
                input.add(change.field)
                input.add(change.label)
                input.add(change.old)
                input.add(change.new)
                input.add(change.isMove)
            }
        }
    }
}

extension FingerprintInput {
    /// Every field of the record, each length-prefixed or tagged like every other input, `extra` by sorted key.
    /// Fed field by field: writing the record as the snapshot's canonical JSON first (escaping every string) was
    /// a third of taking the fingerprints of a nightly run's hundred thousand people. `User.fingerprintFieldCount`
    /// and a test keep this list complete.
    @discardableResult
    mutating func add(user: User) -> Range<Int> {
        add(user.id)
        add(user.userPrincipalName)
        add(user.displayName)
        add(user.givenName)
        add(user.surname)
        add(user.mail)
        add(user.businessPhones.count)
        for phone in user.businessPhones { add(phone) }
        add(user.mobilePhone)
        add(user.jobTitle)
        add(user.department)
        add(user.officeLocation)
        add(user.companyName)
        add(user.accountEnabled.map { $0 ? "true" : "false" })
        add(user.userType)
        add(user.employeeId)
        add(user.preferredLanguage)
        let managerStart = bytes.count
        if let manager = user.manager {
            add(true)
            add(manager.id)
            add(manager.displayName)
        } else {
            add(false)
        }
        let managerBytes = managerStart..<bytes.count
        add(user.extra.count)
        if user.extra.count == 1, let only = user.extra.first {
            add(only.key)
            add(only.value)
        } else if !user.extra.isEmpty {
            for (key, value) in user.extra.sorted(by: { $0.key < $1.key }) {
                add(key)
                add(value)
            }
        }
        return managerBytes
    }

    /// A hash of the bytes fed so far but `excluded` (what `add(user:)` returns: the manager), for
    /// `EarlyPreparation.recordHash`.
    func hash(excluding excluded: Range<Int>) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { raw in
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[..<excluded.lowerBound]))
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[excluded.upperBound...]))
        }
        return hasher.finalize()
    }
}

extension User {
    /// A digest of every field (`FingerprintInput.add(user:)`): what the search-token cache and the export rows
    /// are checked with, and what a render fingerprint reads of the record itself. A change to a field a reader
    /// does not show only costs that reader some work.
    var recordDigest: RenderFingerprint {
        var input = FingerprintInput()
        input.add(user: self)
        return input.fingerprint
    }

    /// The stored properties `FingerprintInput.add(user:)` feeds; a test compares it with the type's own count,
    /// so a field added to `User` cannot be left out of the render fingerprint unnoticed.
    static let fingerprintFieldCount = 18
}
