/// Person pages on a nightly run: people whose render fingerprint matches the published site's are carried
/// over without rendering; everyone else goes through the ordinary per-person render.
extension SiteRenderJob {
    /// What one chunk of people produced: the files, each person's fingerprint, and how many were rendered.
    struct PeopleChunk: Sendable {
        var paths: [String] = []
        var fingerprints: [(id: String, fingerprint: RenderFingerprint)] = []
        var rendered = 0
        var reused = 0
    }

    /// `people/<slug>.md`, `.html` and `.vcf` for the people in `range`, reusing the published files of
    /// everyone whose fingerprint equals the one in `previous` when `output` can carry them over.
    func renderPeople(
        _ range: Range<Int>, reusing previous: RenderFingerprints?, site: [UInt8], to output: some SiteOutput
    ) throws(SiteError) -> PeopleChunk {
        var chunk = PeopleChunk()
        chunk.paths.reserveCapacity(range.count * 3)
        chunk.fingerprints.reserveCapacity(range.count)
        var input = FingerprintInput()
        for position in range {
            let person = directory.people[position]
            input.reset()
            addFingerprintInput(of: person, site: site, to: &input)
            let fingerprint = input.fingerprint
            chunk.fingerprints.append((person.user.id, fingerprint))
            if let previous, previous.fingerprint(of: person.user.id) == fingerprint {
                let base = "people/\(person.slug)"
                let files = [base + ".md", base + ".html", base + ".vcf"]
                if output.carryOver(files) {
                    chunk.paths += files
                    chunk.reused += 1
                    continue
                }
            }
            chunk.paths += try renderPeople(position..<(position + 1), to: output)
            chunk.rendered += 1
        }
        return chunk
    }

    /// The site-wide inputs of every person page: format and orgdir version, the running build and cmark-gfm
    /// (a rebuilt binary or an upgraded library may render differently), the options a person page shows
    /// (title, exports in the layout, hidden fields) and the template set.
    static func siteFingerprintInput(options: SiteOptions, templates: TemplateSet) -> [UInt8] {
        var input = FingerprintInput()
        input.add("orgdir-person-files/1")
        input.add(OrgDirVersion.current)
        input.add(ExecutableIdentity.current)
        input.add(Markdown.libraryVersion)
        input.add(options.title)
        input.add(options.exports.map(\.rawValue).sorted().joined(separator: ","))
        input.add(options.hideFields.sorted().joined(separator: "\n"))
        input.add(templates.fingerprint.hex)
        return input.bytes
    }

    /// Everything `renderPeople` reads for `person`, in a fixed order: the record after hiding, slug and
    /// department page, stamp, the manager's resolved name and link, the reports' names, links and titles,
    /// and the person's history lines. A change to any of them (a manager renamed, a report added, a slug
    /// lengthened by a new collision) changes the fingerprint; anything else leaves it as it was.
    func addFingerprintInput(of person: SitePerson, site: [UInt8], to input: inout FingerprintInput) {
        input.add(bytes: site)
        input.add(user: person.user)
        input.add(person.slug)
        input.add(person.departmentFile)
        let personStamp = stamp(for: person)
        input.add(personStamp.display)
        input.add(personStamp.iso)
        if let manager = person.user.manager {
            let position = directory.positionByID[manager.id]
            input.add(true)
            input.add(manager.displayName ?? position.map { directory.people[$0].user.displayName })
            input.add(position.map { directory.people[$0].slug })
        } else {
            input.add(false)
        }
        let reports = directory.reportsByManagerID[person.user.id] ?? []
        input.add(reports.count)
        for position in reports {
            let report = directory.people[position]
            input.add(report.user.displayName)
            input.add(report.slug)
            input.add(report.user.jobTitle)
        }
        let events = history.eventsByPerson[person.user.id] ?? []
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
    /// The record as the snapshot codec writes it: canonical JSON, self-delimiting, every field included.
    mutating func add(user: User) {
        var record: [UInt8] = []
        SnapshotUserCodec.append(user, to: &record)
        add(bytes: record)
    }
}
