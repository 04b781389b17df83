#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Render fingerprints in id order, matched against a directory by one merge instead of a map of ids.
///
/// Why: a nightly run read two fingerprint files of a hundred thousand lines into maps keyed by id, looked every
/// person up in both, and built a set of everyone's slug to find the stale ones: about 220 of a 100,000-person
/// nightly profile's 2,760 samples, all hashing ids and slugs. A run writes its fingerprints in id order, the
/// order of the directory's users (the snapshot's), so the next run walks the file and its users side by side.
struct IDOrderedLines: Sendable, Equatable {
    /// Every id's UTF-8, one after the other; `idEnds[i]` is where the i-th ends.
    private(set) var idBytes: [UInt8] = []
    private(set) var idEnds: [Int] = []
    private(set) var fingerprints: [RenderFingerprint] = []
    /// The slugs, likewise, when every line has one and they were asked for.
    private(set) var slugBytes: [UInt8]?
    private(set) var slugEnds: [Int]?

    var count: Int { fingerprints.count }

    /// Lines read from a file (`hex slug/id`), kept only while their ids strictly ascend byte-wise: nil as soon as
    /// one does not (a file written in another order, or an id twice), and the caller reads it the other way.
    init?(
        lines: [(fingerprint: RenderFingerprint, slug: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer)],
        slugs: Bool
    ) {
        idBytes.reserveCapacity(lines.count * 36)
        idEnds.reserveCapacity(lines.count)
        fingerprints.reserveCapacity(lines.count)
        var keepsSlugs = slugs
        if slugs {
            slugBytes = []
            slugBytes?.reserveCapacity(lines.count * 40)
            slugEnds = []
            slugEnds?.reserveCapacity(lines.count)
        }
        var previousID: UnsafeRawBufferPointer?
        for line in lines {
            if let previousID, Self.compare(previousID, line.id) >= 0 { return nil }
            previousID = line.id
            idBytes.append(contentsOf: line.id)
            idEnds.append(idBytes.count)
            fingerprints.append(line.fingerprint)
            if keepsSlugs {
                if line.slug.isEmpty {
                    keepsSlugs = false
                    slugBytes = nil
                    slugEnds = nil
                } else {
                    slugBytes?.append(contentsOf: line.slug)
                    slugEnds?.append(slugBytes?.count ?? 0)
                }
            }
        }
    }

    /// The id of line `index`.
    func id(_ index: Int) -> String {
        idBytes.withUnsafeBytes { String(decoding: bytes(of: index, in: $0, ends: idEnds), as: UTF8.self) }
    }

    /// The slug of line `index`, when slugs are kept.
    func slug(_ index: Int) -> String? {
        guard let slugBytes, let slugEnds else { return nil }
        return slugBytes.withUnsafeBytes { String(decoding: bytes(of: index, in: $0, ends: slugEnds), as: UTF8.self) }
    }

    /// The line whose id is `id`, by binary search (tests and single lookups; runs merge).
    func line(of id: String) -> Int? {
        id.withUTF8Bytes { wanted in
            idBytes.withUnsafeBytes { all in
                var low = 0
                var high = count
                while low < high {
                    let middle = (low + high) / 2
                    let order = Self.compare(bytes(of: middle, in: all, ends: idEnds), UnsafeRawBufferPointer(wanted))
                    if order == 0 { return middle }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
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
    func merge(_ directory: SiteDirectory, order: [Int], _ visit: (Match) -> Void) {
        idBytes.withUnsafeBytes { all in
            var line = 0
            for position in order {
                directory.people[position].user.id.withUTF8Bytes { id in
                    let wanted = UnsafeRawBufferPointer(id)
                    while line < count {
                        let order = Self.compare(bytes(of: line, in: all, ends: idEnds), wanted)
                        if order > 0 { break }
                        if order == 0 {
                            visit(.both(position: position, line: line))
                            line += 1
                            return
                        }
                        visit(.lineOnly(line: line))
                        line += 1
                    }
                    visit(.personOnly(position: position))
                }
            }
            while line < count {
                visit(.lineOnly(line: line))
                line += 1
            }
        }
    }

    /// Whether line `line`'s slug is `slug`'s bytes.
    func slug(at line: Int, equals slug: String) -> Bool {
        guard let slugBytes, let slugEnds else { return false }
        return slug.withUTF8Bytes { wanted in
            slugBytes.withUnsafeBytes { all in
                Self.compare(bytes(of: line, in: all, ends: slugEnds), UnsafeRawBufferPointer(wanted)) == 0
            }
        }
    }

    /// Byte-wise order of two byte strings, as `User.idPrecedes` orders ids: negative, zero or positive.
    static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }
}

/// Entry `index`'s bytes in `all`, entries ending at `ends`.
private func bytes(of index: Int, in all: UnsafeRawBufferPointer, ends: [Int]) -> UnsafeRawBufferPointer {
    let start = index == 0 ? 0 : ends[index - 1]
    return UnsafeRawBufferPointer(rebasing: all[start..<ends[index]])
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
        for (position, person) in people.enumerated() {
            guard person.users === users, order[person.userPosition] == -1 else { return nil }
            order[person.userPosition] = position
        }
        let sorted = users.users.withUnsafeBufferPointer { users in
            users.indices.dropFirst().allSatisfy { User.idPrecedes(users[$0 - 1].id, users[$0].id) }
        }
        return sorted ? order : nil
    }
}
