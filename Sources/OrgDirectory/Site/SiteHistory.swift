import Foundation

/// The change history as the site shows it: each night's joiners, leavers and changes with `hideFields`
/// applied, plus every person's events, prepared once per render so pages only look things up.
///
/// Why a site-side copy of `ChangeHistory`: a hidden field must vanish from the change page, the feed and
/// the person pages too, and the person pages need events by id without scanning every night per person.
struct SiteHistory: Sendable {
    /// One night with changes: the newer snapshot of a `DiffReport`, with what it found.
    struct Night: Sendable {
        /// File name (without `.html`) under `changes/`, from the snapshot's name.
        let file: String
        let date: Date
        let stamp: SiteStamp
        /// The snapshot this night's changes were found in, for the feed's entry id.
        let snapshot: String
        let joiners: [User]
        let leavers: [User]
        /// Changed people who moved (department, manager or office), then the other changed people.
        let moved: [PersonChange]
        let changed: [PersonChange]

        /// "3 joined, 1 left, 2 changed (1 moved)", counted after hiding.
        var summary: String {
            DiffReport.Summary(DirectoryDiff(joiners: joiners, leavers: leavers, changed: moved + changed))
                .description
        }
    }

    /// Newest first.
    let nights: [Night]
    /// Everyone's events, newest first per person, with hidden fields removed (events left empty are dropped).
    let eventsByPerson: [String: [ChangeHistory.PersonEvent]]
    /// Each night by its snapshot's name, so a person's event finds its page and date.
    let nightBySnapshot: [String: Night]
    /// Where the tenant's feed ids come from: the same tenant and Graph host give the same ids.
    let feedSeed: String
    /// When the retained history starts: the oldest retained snapshot, else the one before the first change.
    let startsAt: Date?
    /// `ChangeHistory.earlier`: each person's newest change in the nights retention dropped, shown on the pages of
    /// those with no retained event.
    let earlier: [String: Date]
    /// The stamp of every date `unchangedSince` can return, made once: formatting a date through `Calendar` for
    /// each person was a quarter of checking which prerendered pages stay.
    private let stampsByDate: [Date: SiteStamp]
    /// The people of the directory `placed(in:)` was given, and `person(_:)` of those with events by display position.
    private var placement: (people: [SitePerson], histories: [Int: PersonHistory])?

    init(_ history: ChangeHistory, hiding hidden: Set<String>) {
        var nights: [Night] = []
        for report in history.newestFirst {
            var moved: [PersonChange] = []
            var changed: [PersonChange] = []
            for change in report.diff.changed {
                var visible = change
                visible.fieldChanges.removeAll { hidden.contains($0.field) }
                if visible.fieldChanges.isEmpty { continue }
                if visible.moves.isEmpty { changed.append(visible) } else { moved.append(visible) }
            }
            let night = Night(
                file: Self.file(forSnapshot: report.new.name), date: report.new.takenAt,
                stamp: SiteStamp(report.new.takenAt), snapshot: report.new.name,
                joiners: report.diff.joiners.map { $0.hiding(hidden) },
                leavers: report.diff.leavers.map { $0.hiding(hidden) }, moved: moved, changed: changed)
            if !(night.joiners.isEmpty && night.leavers.isEmpty && moved.isEmpty && changed.isEmpty) {
                nights.append(night)
            }
        }
        var events = history.eventsByPerson()
        if !hidden.isEmpty {
            for (id, list) in events {
                events[id] = list.compactMap { event in
                    var event = event
                    event.fieldChanges.removeAll { hidden.contains($0.field) }
                    return event.kind == .changed && event.fieldChanges.isEmpty ? nil : event
                }
            }
        }
        self.nights = nights
        self.nightBySnapshot = Dictionary(nights.map { ($0.snapshot, $0) }, uniquingKeysWith: { first, _ in first })
        self.eventsByPerson = events
        let side = history.entries.last?.new
        self.feedSeed = "\(side?.tenant ?? "")|\(side?.graphHost ?? "")"
        self.startsAt = history.since ?? history.entries.first?.old.takenAt
        self.earlier = history.earlier
        var stamps: [Date: SiteStamp] = [:]
        for date in events.values.compactMap(\.first?.date) + [startsAt].compactMap({ $0 }) where stamps[date] == nil {
            stamps[date] = SiteStamp(date)
        }
        for date in Set(history.earlier.values) where stamps[date] == nil {
            stamps[date] = SiteStamp(date)
        }
        self.stampsByDate = stamps
    }

    /// The person's events (newest first) and since when their record is unchanged, from one lookup by id.
    ///
    /// Why: a nightly run takes every person's page fingerprint, which reads both. Looked up apart, with the stamp
    /// found by date each time, they were three lookups a person, a fifth of taking a fingerprint
    /// (`Benchmarks/profile-nightly.sh`); most people have no event and share the history's start stamp.
    func person(_ id: String) -> PersonHistory {
        guard let events = eventsByPerson[id], let newest = events.first else { return withoutEvents(id) }
        return PersonHistory(events: events, unchangedSince: newest.date)
    }

    /// The files of the nights none of `people` is on (by id): a night's page shows its joiners, leavers and changed
    /// people (those with a change left after hiding, as `eventsByPerson` keeps them) and links their pages, so only
    /// a change to one of theirs can change it. `tonight` (a snapshot's name) is left out: its page is new.
    func nightsUnreached(by people: some Sequence<String>, tonight: String) -> Set<String> {
        var reached: Set<String> = [tonight]
        for id in people {
            for event in eventsByPerson[id] ?? [] { reached.insert(event.snapshot) }
        }
        return Set(nights.lazy.filter { !reached.contains($0.snapshot) }.map(\.file))
    }

    /// The stamp of `date`, one `person(_:)` returned: made once per date, not for each page.
    func stamp(at date: Date) -> SiteStamp {
        stampsByDate[date] ?? SiteStamp(date)
    }

    /// This history with everyone's events placed by display position in `directory` (see `person(_:)` for a
    /// `SitePerson`); as it is when the directory does not place by position (two of its people share an id).
    ///
    /// Why: a nightly run takes everyone's page fingerprint, which looks their history up: by id, that hashed each of
    /// a hundred thousand ids (reached in a place of its own) for the few thousand people with an event, 21 of some
    /// 1,130 samples of a 100,000-person nightly (`Benchmarks/profile-nightly.sh`). By position, those few thousand
    /// are placed once.
    func placed(in directory: SiteDirectory) -> SiteHistory {
        guard directory.placesByPosition else { return self }
        var histories: [Int: PersonHistory] = [:]
        histories.reserveCapacity(eventsByPerson.count)
        for id in eventsByPerson.keys {
            if let position = directory.positionByID[id] { histories[position] = person(id) }
        }
        var placed = self
        placed.placement = (directory.people, histories)
        return placed
    }

    /// `person(_:)` of `person`'s id: found by their display position when they are the person there in the directory
    /// this history was `placed(in:)`, else by id.
    func person(_ person: SitePerson) -> PersonHistory {
        guard let placement, SiteDirectory.isOwn(person, in: placement.people) else {
            return self.person(person.user.id)
        }
        // `earlier` is looked up only for whom it is asked: under long retention it holds nearly everyone, and placed
        // ahead it was 47 of a nightly's 1,169 samples (100,000 ids), where a nightly asks for the few it reaches.
        return placement.histories[person.index] ?? withoutEvents(person.user.id)
    }

    /// What `person(_:)` finds for the person `id` without a retained event: unchanged since their newest change in
    /// a dropped night (`earlier`), else since the history's start. No id is hashed while `earlier` is empty.
    private func withoutEvents(_ id: String) -> PersonHistory {
        PersonHistory(events: [], unchangedSince: (earlier.isEmpty ? nil : earlier[id]) ?? startsAt)
    }

    /// What `person(_:)` finds for one person.
    struct PersonHistory {
        /// Newest first.
        let events: [ChangeHistory.PersonEvent]
        /// Since when the record is unchanged as far as the retained history knows: the newest event's date, else
        /// the newest change in a night retention dropped (`ChangeHistory.earlier`), else the start of the history;
        /// nil when the history holds no change at all. A date, not its stamp
        /// (`stamp(at:)`): most people share the history's start, and a stamp's texts handed out for each of their
        /// pages were two strings whose counts both cores changed at once, for everyone's fingerprint.
        let unchangedSince: Date?
    }

    /// The night's page name: the snapshot name without `.json`, reduced to `A-Z a-z 0-9 -` so nothing read
    /// back from the state folder can reach the file system as a path.
    static func file(forSnapshot name: String) -> String {
        let base = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        let safe = base.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
        }
        let text = String(String.UnicodeScalarView(safe))
        return text.isEmpty ? "night-" + Slug.idHash(name, length: 12) : text
    }

    /// A stable `urn:uuid:` for the feed (`part` empty) or one of its entries: Atom ids must be absolute IRIs
    /// that never change, and the site has no URL of its own to build them from.
    func atomID(_ part: String) -> String {
        let seed = feedSeed + "|" + part
        let hex = Array(Slug.idHash(seed + "#1", length: 16) + Slug.idHash(seed + "#2", length: 16))
        // RFC 9562 version 8 (vendor-specific) with the RFC variant bits.
        var digits = hex
        digits[12] = "8"
        digits[16] = ["8", "9", "a", "b"][Int(String(digits[16]), radix: 16).map { $0 & 3 } ?? 0]
        let text = String(digits)
        func cut(_ from: Int, _ to: Int) -> Substring {
            text[text.index(text.startIndex, offsetBy: from)..<text.index(text.startIndex, offsetBy: to)]
        }
        return "urn:uuid:\(cut(0, 8))-\(cut(8, 12))-\(cut(12, 16))-\(cut(16, 20))-\(cut(20, 32))"
    }
}
