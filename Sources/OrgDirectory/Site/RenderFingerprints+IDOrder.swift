/// Render fingerprints in id order, matched against a directory by one merge instead of a map of ids.
///
/// Why: a nightly run read two fingerprint files of a hundred thousand lines into maps keyed by id, looked every
/// person up in both, and built a set of everyone's slug to find the stale ones: about 220 of a 100,000-person
/// nightly profile's 2,760 samples, all hashing ids and slugs. A run writes its fingerprints in id order, the
/// order of the directory's users (the snapshot's), so the next run walks the file and its users side by side.
struct IDOrderedLines: Sendable, Equatable {
    private(set) var ids: PackedBytes
    private(set) var fingerprints: [RenderFingerprint] = []
    /// The slugs, when every line has one and they were asked for.
    private(set) var slugs: PackedBytes?
    /// The file the lines were read from, when it was kept (`LineText`).
    private(set) var text: LineText?

    var count: Int { fingerprints.count }

    /// Lines read from a file (`hex slug/id`), kept only while their ids strictly ascend byte-wise: nil as soon as
    /// one does not (a file written in another order, or an id twice), and the caller reads it the other way.
    /// `text`: the file they were read from, each line's bytes found by its place there.
    init?(
        lines: [(fingerprint: RenderFingerprint, slug: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer)],
        slugs keepingSlugs: Bool, text: LineText? = nil
    ) {
        ids = PackedBytes(capacity: lines.count, bytesPerEntry: 36)
        fingerprints.reserveCapacity(lines.count)
        slugs = keepingSlugs ? PackedBytes(capacity: lines.count, bytesPerEntry: 40) : nil
        var previousID: UnsafeRawBufferPointer?
        for line in lines {
            if let previousID, ByteOrder.compare(previousID, line.id) >= 0 { return nil }
            previousID = line.id
            ids.append(line.id)
            fingerprints.append(line.fingerprint)
            if line.slug.isEmpty { slugs = nil } else { slugs?.append(line.slug) }
        }
        self.text = text?.lineCount == lines.count ? text : nil
    }

    /// Equal when the lines say the same: where they were read from does not count.
    static func == (left: IDOrderedLines, right: IDOrderedLines) -> Bool {
        left.ids == right.ids && left.fingerprints == right.fingerprints && left.slugs == right.slugs
    }

    /// The id of line `index`.
    func id(_ index: Int) -> String { ids.string(index) }

    /// The slug of line `index`, when slugs are kept.
    func slug(_ index: Int) -> String? { slugs?.string(index) }

    /// The line whose id is `id`, by binary search (tests and single lookups; runs merge).
    func line(of id: String) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let order = ids.compare(middle, with: id)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// What the merge found for one of the directory's people or one line.
    enum Match {
        /// The person at display position `position` has line `line`.
        case both(position: Int, line: Int)
        /// The person at `position` has no line (joined, or not written last time).
        case personOnly(position: Int)
        /// Line `line` is nobody's now (left).
        case lineOnly(line: Int)
    }

    /// Walks the lines beside the directory's people in id order (`order`: display positions by id), handing each
    /// match to `visit`, in id order.
    ///
    /// The ids are read from the users the people share, where `order` lists them (`displayPositionsInIDOrder`):
    /// reached through each person, every id cost retains of the person and of the shared list, which the two merges
    /// of a nightly run (the published site's and the spare's, side by side) made on the same objects from both
    /// cores, some 36 samples of a 100,000-person nightly's profile.
    func merge(_ directory: SiteDirectory, order: [Int], _ visit: (Match) -> Void) {
        guard let shared = directory.people.first?.users, shared.users.count == order.count else {
            merge(ids: { _, position in directory.people[position].user.id }, order: order, visit)
            return
        }
        shared.users.withUnsafeBufferPointer { users in merge(ids: { index, _ in users[index].id }, order: order, visit)
        }
    }

    /// `merge` with the id of the person at the `index`th display position of `order` from `id`.
    private func merge(ids id: (_ index: Int, _ position: Int) -> String, order: [Int], _ visit: (Match) -> Void) {
        var line = 0
        for (index, position) in order.enumerated() {
            let id = id(index, position)
            var matched = false
            while line < count {
                let order = ids.compare(line, with: id)
                if order > 0 { break }
                line += 1
                if order == 0 {
                    visit(.both(position: position, line: line - 1))
                    matched = true
                    break
                }
                visit(.lineOnly(line: line - 1))
            }
            if !matched { visit(.personOnly(position: position)) }
        }
        while line < count {
            visit(.lineOnly(line: line))
            line += 1
        }
    }

    /// Whether line `line`'s slug is `slug`.
    func slug(at line: Int, equals slug: String) -> Bool {
        slugs?.compare(line, with: slug) == 0
    }
}

/// The text of a fingerprint file, kept beside the lines read from it so that a run writing its own file copies the
/// runs of lines that stay as they are, byte for byte, instead of writing each line again from its fingerprint, slug
/// and id (`RenderFingerprints.encode`).
///
/// Why: written a line at a time, a 100,000-person nightly's file was 25–29 of its some 990 samples, on the longest of
/// the four tasks that save the state after the publish (`PROFILE_USERS=100000 Benchmarks/profile-nightly.sh`). The
/// file stays mapped (`MappedFile`), its pages handed back once read: they are the file system's, read again where a
/// run is copied, and the store never writes over the file (the spare's is removed, not rewritten, and a mapping
/// outlives the name).
struct LineText: Sendable {
    /// The whole file.
    private let file: MappedFile
    /// Where each line starts in `file`, the line break before it included in the line before; the last entry is
    /// where the last line ends.
    private let starts: [Int]

    /// `file`, whose lines start at `starts` (and the last ends at the last entry of `starts`).
    init(_ file: MappedFile, lineStarts starts: [Int]) {
        self.file = file
        self.starts = starts
    }

    /// How many lines the text has.
    var lineCount: Int { max(starts.count - 1, 0) }

    /// The bytes of lines `lines`, line breaks included (consecutive lines are one run of the file), valid while this
    /// text is.
    func bytes(ofLines lines: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: file.bytes[starts[lines.lowerBound]..<starts[lines.upperBound]])
    }
}

extension SiteDirectory {
    /// The display positions of the directory's people in the order of their users (the id order the directory
    /// was made from), when every person refers to one shared, id-sorted list of users, each user once; nil
    /// otherwise (a directory made from unsorted users, as some tests make).
    func displayPositionsInIDOrder() -> [Int]? {
        guard let users = people.first?.users, users.users.count == people.count else {
            return people.isEmpty ? [] : nil
        }
        var order = [Int](repeating: -1, count: people.count)
        // By position, reading the two fields in place: `for person in people` copied each whole person (a retain of
        // every field) on every nightly run.
        for position in people.indices {
            let user = people[position].userPosition
            guard people[position].users === users, order[user] == -1 else { return nil }
            order[user] = position
        }
        return Snapshot.isCanonicallyOrdered(users.users) ? order : nil
    }
}
