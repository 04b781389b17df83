import Foundation

/// What every person page's render fingerprint takes from outside the people: the site's options and templates, the
/// change history the pages show, the department pages they link to, and whether any slug was lengthened. Kept with
/// the render fingerprints (`RenderFingerprints.context`), stamped with the snapshot the run recorded.
///
/// Why: a nightly run whose context is the one the run before kept, tonight's own changes aside, can carry the
/// fingerprints of everyone tonight's changes do not reach (`PageReach`) instead of taking them again: the
/// fingerprints of a hundred thousand people read every manager's and report's name, slug and title, to find the
/// few hundred pages that changed.
struct PageContext: Sendable, Equatable {
    /// The snapshot the run recorded, whose people the fingerprints describe.
    var snapshot: String
    /// `SiteRenderJob.siteFingerprint`: options, templates, orgdir version and build, cmark.
    var site: RenderFingerprint
    /// `historyDigest` of the history the pages showed.
    var history: RenderFingerprint
    /// `departmentsDigest` of the site's departments.
    var departments: RenderFingerprint
    /// The ids of the people whose slug was lengthened (`SiteDirectory.lengthenedSlugs`), in id order: such a slug
    /// follows from its person's record too, but is lengthened only while someone else's ordinary slug is the same,
    /// so it can change when someone else joins, leaves or is renamed. Nil when an id cannot be written on the line.
    var lengthened: [String]?

    /// The history as far as a person page without tonight's events reads it: the date shown on the pages of people
    /// with no event (`SiteHistory.startsAt`, else the run's own `generatedAt`), and each retained night (its
    /// snapshots, their dates as the pages show them, and how much it found), leaving out the night whose newer
    /// snapshot is `leavingOut`. A night's changes never change once recorded, so the nights' names and counts stand
    /// for them: the events of someone tonight did not touch follow from those nights alone.
    ///
    /// The run before made its digest with the nights retention drops tonight (`ChangeHistory.dropped`), so
    /// `restoringDropped` puts them back where they were, before the nights kept; their people are in the reach
    /// (`PageReach.adding(_:)`).
    static func historyDigest(
        _ history: ChangeHistory, startsAt: Date?, generatedAt: Date, leavingOut tonight: String? = nil,
        restoringDropped: Bool = false
    ) -> RenderFingerprint {
        var input = FingerprintInput()
        input.add("orgdir-page-history/1")
        input.add(SiteStamp.seconds(startsAt ?? generatedAt))
        let nights = restoringDropped ? history.dropped + history.entries : history.entries
        for night in nights where night.new.name != tonight {
            input.add(night.old.name)
            input.add(night.new.name)
            input.add(SiteStamp.seconds(night.old.takenAt))
            input.add(SiteStamp.seconds(night.new.takenAt))
            input.add(night.diff.joiners.count)
            input.add(night.diff.leavers.count)
            input.add(night.diff.changed.count)
        }
        return input.fingerprint
    }

    /// The folded key and page of each department whose page is not named by its key alone, in the site's order.
    ///
    /// A department's page (`SiteDirectory.departmentFile`) is named after the spelling of its first person and its
    /// folded key: where the spelling's name part is the key's, as with nearly every department, the name follows
    /// from the key, which is in the record of everyone in it. Only the others can change their page without a
    /// change to the record of the people in them: a night that adds, drops or renames one of those carries nothing.
    /// (All of them here made a night that opened or closed any department carry nothing.)
    static func departmentsDigest(_ departments: [SiteDepartment]) -> RenderFingerprint {
        var input = FingerprintInput()
        input.add("orgdir-page-departments/2")
        for department in departments {
            let key = String(decoding: department.sortKey, as: UTF8.self)
            guard department.file != SiteDirectory.departmentFile(name: key, key: key) else { continue }
            input.add(bytes: department.sortKey)
            input.add(department.file)
        }
        return input.fingerprint
    }

    /// The two lines `RenderFingerprints` keeps it as: `context <site> <history> <departments> <snapshot>` (the
    /// snapshot's name last, whatever it holds but a line break), then `lengthened` and each of those ids after a
    /// space, or `lengthened unknown`.
    var lines: String {
        let ids = lengthened.flatMap { ids in
            ids.contains { $0.isEmpty || $0.contains(where: { $0.isWhitespace }) } ? nil : ids
        }
        return "context \(site.hex) \(history.hex) \(departments.hex) \(snapshot)\n"
            + (ids.map { (["lengthened"] + $0).joined(separator: " ") } ?? "lengthened unknown")
    }

    /// The context `lines` holds, given as its two lines; nil for anything else.
    init?(line: Substring, lengthenedLine: Substring) {
        let parts = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        let ids = lengthenedLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "context", let site = Self.digest(parts[1]),
            let history = Self.digest(parts[2]), let departments = Self.digest(parts[3]), !parts[4].isEmpty,
            ids.first == "lengthened"
        else { return nil }
        let lengthened = ids.dropFirst()
        self.init(
            snapshot: String(parts[4]), site: site, history: history, departments: departments,
            lengthened: lengthened == ["unknown"] || lengthened.contains(where: \.isEmpty)
                ? nil : lengthened.map(String.init))
    }

    /// A digest written as `RenderFingerprint.hex`.
    private static func digest(_ hex: Substring) -> RenderFingerprint? {
        var text = String(hex)
        return text.withUTF8 { RenderFingerprint(hexBytes: UnsafeRawBufferPointer($0)) }
    }

    init(
        snapshot: String, site: RenderFingerprint, history: RenderFingerprint, departments: RenderFingerprint,
        lengthened: [String]?
    ) {
        self.snapshot = snapshot
        self.site = site
        self.history = history
        self.departments = departments
        self.lengthened = lengthened
    }
}
