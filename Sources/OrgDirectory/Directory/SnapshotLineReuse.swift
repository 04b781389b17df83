import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The canonical file a snapshot was read from, kept (mapped) so the next snapshot can copy the lines of people
/// who did not change instead of encoding them again.
///
/// Why: a nightly run with 1 % changed encoded all 100,000 people into the new snapshot (about 100 of a
/// 100,000-person nightly profile's 3,400 samples), when 99 % of the lines are the previous snapshot's, byte for
/// byte. Canonical bytes depend only on the record and the encoder, so a line is reused only when the person is
/// equal to the one the previous file holds and that file was written by this orgdir version.
public struct SnapshotSource: Sendable {
    /// The snapshot decoded from the file.
    let snapshot: Snapshot
    /// The whole file.
    let bytes: Data
    /// The people lines (`canonicalParts`'s body).
    let body: Range<Int>
    /// The ids of people whose record in the new snapshot differs from the one here, when the run worked them out
    /// (`DirectoryDiff.between(_:_:unequal:)`, comparing the same two lists): the new snapshot then copies the others'
    /// lines without comparing each record again.
    var unequal: Set<String>?
    /// The snapshot's people table when the people were read from it (`SnapshotPeopleTable`): the next table copies
    /// the entries of the people who did not change from it.
    var table: SnapshotPeopleTable.Source?
    /// Which of the new snapshot's people are copied from here (`SnapshotLineReuse.plan`), when the run worked it out
    /// for the snapshot's lines and the table's entries both: it compares or hashes every id.
    var plan: [SnapshotLineReuse.Piece]?

    /// Whether its lines are this orgdir's canonical bytes: written by this version, in this schema (its
    /// metadata's; `SnapshotLineReuse.encodesAlike` checks the encoder itself).
    var isReusable: Bool {
        snapshot.metadata.orgdirVersion == OrgDirVersion.current
            && snapshot.metadata.schemaVersion == Snapshot.currentSchemaVersion
    }

    /// Where each person's object starts and ends (without its separator), in order; nil when the body does not
    /// hold one line per person of `snapshot` (or `count`), each `{…}` followed by `,\n` (the last by `\n`).
    func objectRanges(count: Int? = nil) -> [Range<Int>]? {
        let count = count ?? snapshot.people.count
        return bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Range<Int>]? in
            guard let base = raw.baseAddress, body.upperBound <= raw.count else { return nil }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(count)
            var start = body.lowerBound
            while start < body.upperBound {
                guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), body.upperBound - start) else {
                    return nil
                }
                let newline = base.distance(to: UnsafeRawPointer(found))
                // The object ends before `,\n` on every line but the last, before `\n` on the last.
                let end = newline == body.upperBound - 1 ? newline : newline - 1
                guard end > start, raw[start] == UInt8(ascii: "{"), raw[end - 1] == UInt8(ascii: "}"),
                    newline == body.upperBound - 1 || raw[end] == UInt8(ascii: ",")
                else { return nil }
                ranges.append(start..<end)
                start = newline + 1
            }
            return ranges.count == count ? ranges : nil
        }
    }
}

/// Which of a new snapshot's people can be copied from the previous file, as runs of consecutive lines.
enum SnapshotLineReuse {
    /// How many of the previous file's lines `encodesAlike` encodes again to compare.
    static let sampleSize = 64

    /// Whether up to `sampleSize` lines spread over the previous file (its people `old`, their objects at `lines`
    /// of `bytes`) are exactly what this build's encoder makes of the same people. The version in the file's
    /// metadata says which orgdir wrote it, but two builds of one version (a development build) may encode
    /// differently, and copying their lines would break "the same people give the same bytes"; a change to the
    /// encoder changes nearly every line, so a sample finds it, for a few dozen encodings.
    static func encodesAlike(_ old: [User], lines: [Range<Int>], in bytes: Data) -> Bool {
        guard old.count == lines.count else { return false }
        let step = max(1, old.count / sampleSize)
        var encoded: [UInt8] = []
        return bytes.withUnsafeBytes { raw in
            stride(from: 0, to: old.count, by: step).allSatisfy { index in
                encoded.removeAll(keepingCapacity: true)
                SnapshotUserCodec.append(old[index], to: &encoded)
                return encoded.elementsEqual(raw[lines[index]])
            }
        }
    }

    /// A stretch of the new file: previous lines copied as they are, or one person encoded anew.
    enum Piece: Equatable {
        /// The previous file's people `range` (by position), equal and in the same order in the new snapshot.
        case copied(Range<Int>)
        /// The new snapshot's person at this position, encoded.
        case encoded(Int)
    }

    /// The new people `new` as pieces, given the previous file's `old` (both sorted by id): each new person equal
    /// to the old one with their id is copied, consecutive copies merged into one piece.
    ///
    /// Both lists are read through their buffers: `for person in new` copied each record (a retain and a release of
    /// every field) to compare people who are nearly all equal, as `DirectoryDiff.between` found. The `==` still
    /// copies both sides (the release build's code makes two copies of a `User` here, against three before).
    ///
    /// With `unequal` (the ids whose records differ, found by the diff's walk over the same two lists, which pairs
    /// people exactly as this one does), nobody is compared again: the `==` of a hundred thousand pairs was some 25
    /// samples of a 100,000-person nightly run, beside its preparation. They are sorted once and walked beside the
    /// people, as the people are met in id order: looked up in the set, every id was hashed, 6 of the plan's 9 samples
    /// (`Benchmarks/profile-ab.sh`, 2026-11-29).
    static func plan(old: [User], new: [User], unequal: Set<String>? = nil) -> [Piece] {
        var pieces: [Piece] = []
        var oldIndex = 0
        let changed = unequal.map { $0.sorted(by: User.idPrecedes) }
        var nextChanged = 0
        /// Whether `id` is among `changed`. Asked only for an id paired with an old person's, and `oldIndex` only
        /// moves on: the ids asked come in strictly ascending order, even from a list that is not in id order.
        func isChanged(_ id: String, in changed: [String]) -> Bool {
            while nextChanged < changed.count, User.idPrecedes(changed[nextChanged], id) { nextChanged += 1 }
            return nextChanged < changed.count && changed[nextChanged] == id
        }
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                for index in new.indices {
                    while oldIndex < old.count, User.idPrecedes(old[oldIndex].id, new[index].id) { oldIndex += 1 }
                    guard oldIndex < old.count, old[oldIndex].id == new[index].id,
                        changed.map({ !isChanged(new[index].id, in: $0) }) ?? (old[oldIndex] == new[index])
                    else {
                        pieces.append(.encoded(index))
                        continue
                    }
                    if case .copied(let run) = pieces.last, run.upperBound == oldIndex {
                        pieces[pieces.count - 1] = .copied(run.lowerBound..<(oldIndex + 1))
                    } else {
                        pieces.append(.copied(oldIndex..<(oldIndex + 1)))
                    }
                    oldIndex += 1
                }
            }
        }
        return pieces
    }
}
