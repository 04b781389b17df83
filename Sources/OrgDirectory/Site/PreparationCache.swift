import Foundation

/// Everyone's preparation for the site directory (`PreparedPerson`: sort key, slug, folded department, phone links,
/// record digest) as the run before made it, kept in the state folder beside that run's snapshot: a nightly run
/// prepares only the people whose record is not the one in that snapshot.
///
/// Why: preparing a hundred thousand people on every run (folding names for the sort key and the slug, parsing every
/// phone number, hashing every record) was 234 of 1,517 samples of a nightly run that found 1% of them changed
/// (`PROFILE_USERS=100000 Benchmarks/profile-nightly.sh`). A person's preparation depends on their record after
/// hiding and on orgdir's build alone (the file's `context`). The file names the snapshot whose people it describes,
/// and a run compares that snapshot's records with its own anyway (`DirectoryDiff.between(_:_:unequal:)`): an entry
/// is used only for a person whose record is the one there (`KeptPreparations`), so no record is hashed to know.
///
/// Entries are read where they lie in the mapped file, found by merging ids (the run lists its people by id, and
/// wrote them so), and a kept entry's bytes are copied into the next file as they are.
struct PreparationCache: Sendable {
    /// The file's bytes, valid while `file` lives.
    fileprivate let file: MappedFile
    /// Where each entry starts in the file, then where the last one ends.
    private let starts: [Int]
    /// Where the entries' display ranks start (`Made.ranks`), when the file has them.
    private let ranksStart: Int?
    /// The name of the snapshot (`SnapshotEntry.name`) whose people the entries describe.
    let snapshot: String

    /// How many people the file describes.
    var count: Int { starts.count - 1 }

    /// What a file must have been made with to be used by a run hiding `hidden`: the format, orgdir's version and
    /// build (the folding, the slugs and the phone parsing are part of them) and the hidden fields.
    static func context(hiding hidden: Set<String>) -> RenderFingerprint {
        FingerprintInput.stateCache("orgdir-preparations/2", hiding: hidden).fingerprint
    }

    /// The cache in the file at `path` when it is whole and was made in `context`; nil for anything else (another
    /// build, other hidden fields, a file cut short or damaged).
    init?(path: String, context: RenderFingerprint) {
        guard let file = MappedFile(path: path) else { return nil }
        var reader = BinaryReader(bytes: file.bytes)
        guard reader.take(Self.magic.count).elementsEqual(Self.magic), reader.digest() == context,
            let snapshot = reader.string(), let count: UInt32 = reader.number(),
            Int(count) <= reader.remaining / Self.smallestEntry
        else { return nil }
        var starts: [Int] = []
        starts.reserveCapacity(Int(count) + 1)
        for _ in 0..<count {
            starts.append(reader.offset)
            guard Self.skipEntry(&reader) else { return nil }
        }
        starts.append(reader.offset)
        // The display ranks: a flag, then a number an entry.
        guard let hasRanks: UInt8 = reader.number(), hasRanks <= 1 else { return nil }
        ranksStart = hasRanks == 1 ? reader.offset : nil
        guard hasRanks == 0 || reader.take(Int(count) * 4).count == Int(count) * 4, reader.remaining == 0 else {
            return nil
        }
        self.file = file
        self.starts = starts
        self.snapshot = snapshot
    }

    /// The person of entry `index`, found at `source` in the run's list, with `slugKey` (`Slug.collisionKey` of
    /// their id); nil when the entry does not read (a damaged file: the person is prepared as if there were none).
    ///
    /// The phone links are checked where they lie and left there (`PreparedPerson.keptPhones`), read only when a page,
    /// a card or a search file asks for them (`phones(at:)`): a nightly asks for those of the 1 % it renders again.
    /// Made for everyone, they were most of the strings this read made, three of a person's four or so allocations,
    /// some 19 MB of fresh memory at 100,000 people (`Benchmarks/profile-ab.sh`, 2026-11-29).
    func person(at index: Int, source: Int, slugKey: UInt32) -> PreparedPerson? {
        var reader = BinaryReader(bytes: file.bytes, offset: starts[index])
        guard let idLength: UInt32 = reader.number() else { return nil }
        _ = reader.take(Int(idLength))
        guard let digest = reader.digest(), let sortKeyLength: UInt32 = reader.number() else { return nil }
        let sortKey = Array(reader.take(Int(sortKeyLength)))
        guard let slugName = reader.string(), let departmentKey = reader.optionalString(),
            let ordinarySlug = reader.string()
        else { return nil }
        let phonesStart = reader.offset
        guard Self.checkPhones(&reader) else { return nil }
        var person = PreparedPerson(
            source: source, sortKey: sortKey, slugName: slugName, departmentKey: departmentKey,
            ordinarySlug: ordinarySlug, keptPhones: phonesStart, recordDigest: digest, slugKey: slugKey)
        person.previousRank = rank(of: index)
        return person
    }

    /// The phone links whose list starts at `offset` of the file (`PreparedPerson.keptPhones`), as
    /// `person(at:source:slugKey:)` found them readable; none if they no longer read (the file changed in place).
    func phones(at offset: Int) -> [(label: String, link: TelephoneLink)] {
        var reader = BinaryReader(bytes: file.bytes, offset: offset)
        let phones = Self.readPhones(&reader)
        assert(phones != nil, "kept phone links must read as they did when their entry was read")
        return phones ?? []
    }

    /// The phone list at `reader`: a count, then a label, the written number, the link (or none) and the search
    /// digits of each phone.
    private static func readPhones(_ reader: inout BinaryReader) -> [(label: String, link: TelephoneLink)]? {
        guard let phoneCount: UInt32 = reader.number() else { return nil }
        var phones: [(label: String, link: TelephoneLink)] = []
        phones.reserveCapacity(Int(phoneCount))
        for _ in 0..<phoneCount {
            guard let label = reader.string(), let written = reader.string(), let uri = reader.optionalString(),
                let searchDigits = reader.string()
            else { return nil }
            phones.append((label, TelephoneLink(written: written, uri: uri, searchDigits: searchDigits)))
        }
        return phones
    }

    /// Whether the phone list at `reader` reads as `readPhones` reads it (lengths and UTF-8), moving past it without
    /// making its strings.
    private static func checkPhones(_ reader: inout BinaryReader) -> Bool {
        guard let phoneCount: UInt32 = reader.number(), Int(phoneCount) <= reader.remaining / 16 else { return false }
        for _ in 0..<phoneCount {
            guard reader.checkString(), reader.checkString(), reader.checkString(optional: true), reader.checkString()
            else { return false }
        }
        return true
    }

    /// The display position of entry `index`'s person in the run that wrote the file, when it kept them.
    func rank(of index: Int) -> UInt32? {
        guard let ranksStart else { return nil }
        return UInt32(littleEndian: file.bytes.loadUnaligned(fromByteOffset: ranksStart + index * 4, as: UInt32.self))
    }

    /// Hands the file's pages back once every entry needed was read (`MappedFile.release`): at 100,000 people they
    /// are some 26 MB of the run's resident set, which the render that follows would otherwise keep.
    func releasePages() {
        file.release(0..<file.bytes.count)
    }

    /// Where entry `index` lies in the file (a kept person's entry is copied from there into the next file).
    func byteRange(of index: Int) -> Range<Int> {
        starts[index]..<starts[index + 1]
    }

    /// `body` of the file's bytes in `range`, whose pages are handed back after.
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        defer { file.release(range) }
        return body(UnsafeRawBufferPointer(rebasing: file.bytes[range]))
    }

    /// The id of entry `index`, compared with `id`'s bytes (`ByteOrder.compare`).
    private func compareID(at index: Int, with id: UnsafeRawBufferPointer) -> Int {
        let start = starts[index]
        let length = Int(UInt32(littleEndian: file.bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        return ByteOrder.compare(UnsafeRawBufferPointer(rebasing: file.bytes[(start + 4)..<(start + 4 + length)]), id)
    }

    /// Finds the entries of people met in id order (`User.idPrecedes`), each after the one before: a chunk of a
    /// run's people walks the file from where its first person's entry would be, with no index of everyone's id.
    /// People met out of order are not found (prepared again), never matched with another's entry.
    struct Cursor {
        let cache: PreparationCache
        private var next: Int

        /// A cursor at the first entry whose id does not precede `id`.
        init(_ cache: PreparationCache, from id: String) {
            self.cache = cache
            var low = 0
            var high = cache.count
            id.withUTF8Bytes { id in
                let id = UnsafeRawBufferPointer(id)
                while low < high {
                    let middle = (low + high) / 2
                    if cache.compareID(at: middle, with: id) < 0 { low = middle + 1 } else { high = middle }
                }
            }
            next = low
        }

        /// The entry of the person with `id`, if the file has one after the last found.
        mutating func entry(for id: String) -> Int? {
            id.withUTF8Bytes { id in
                let id = UnsafeRawBufferPointer(id)
                while next < cache.count {
                    let order = cache.compareID(at: next, with: id)
                    if order > 0 { return nil }
                    next += 1
                    if order == 0 { return next - 1 }
                }
                return nil
            }
        }
    }
}

// MARK: - File format

extension PreparationCache {
    private static let magic = Array("orgdir-preparations\n".utf8)
    /// An entry's fixed part: id length, digest, sort key length, slug name length, department marker, slug length,
    /// phone count.
    private static let smallestEntry = 4 + 16 + 4 + 4 + 4 + 4 + 4
    /// The length written for a missing optional string.
    fileprivate static let absent = UInt32.max

    /// The file's first bytes: a header line, `context`, the snapshot's name and the number of entries. The entries
    /// (`made.chunks`) follow as they are, written after it rather than copied into one buffer (at 100,000 people
    /// they are some 26 MB). Numbers are 32-bit little-endian; strings are length-prefixed.
    static func header(_ made: Made, context: RenderFingerprint, snapshot: String) -> [UInt8] {
        var out = magic
        BinaryRecord.append(context, to: &out)
        BinaryRecord.append(snapshot, to: &out)
        BinaryRecord.append(UInt32(made.count), to: &out)
        return out
    }

    /// Appends the entry of `person` (with `id`); false when the person lacks what an entry holds (prepared without
    /// their slug, phone links or record digest: a directory too large to keep caches).
    static func appendEntry(id: String, person: PreparedPerson, to out: inout [UInt8]) -> Bool {
        guard let ordinarySlug = person.ordinarySlug, let phones = person.phones, let digest = person.recordDigest
        else { return false }
        assert(person.keptPhones < 0, "a kept entry is copied as it is, never made again")
        BinaryRecord.append(id, to: &out)
        BinaryRecord.append(digest, to: &out)
        BinaryRecord.append(UInt32(person.sortKey.count), to: &out)
        out += person.sortKey
        BinaryRecord.append(person.slugName, to: &out)
        appendOptional(person.departmentKey, to: &out)
        BinaryRecord.append(ordinarySlug, to: &out)
        BinaryRecord.append(UInt32(phones.count), to: &out)
        for (label, link) in phones {
            BinaryRecord.append(label, to: &out)
            BinaryRecord.append(link.written, to: &out)
            appendOptional(link.uri, to: &out)
            BinaryRecord.append(link.searchDigits, to: &out)
        }
        return true
    }

    private static func appendOptional(_ text: String?, to out: inout [UInt8]) {
        if let text { BinaryRecord.append(text, to: &out) } else { BinaryRecord.append(absent, to: &out) }
    }

    /// Steps over one entry, checking only that every length fits the file (strings are checked when read).
    private static func skipEntry(_ reader: inout BinaryReader) -> Bool {
        guard reader.skipString(), reader.digest() != nil, reader.skipString(), reader.skipString(),
            reader.skipString(optional: true), reader.skipString(),
            let phoneCount: UInt32 = reader.number(), Int(phoneCount) <= reader.remaining / 16
        else { return false }
        for _ in 0..<phoneCount {
            guard reader.skipString(), reader.skipString(), reader.skipString(optional: true), reader.skipString()
            else { return false }
        }
        return true
    }

    /// Part of a new file's entries: bytes made this run, or a run of bytes of the run before's file.
    enum Piece: Sendable, Equatable {
        case made([UInt8])
        case kept(Range<Int>)
    }

    /// The entries a directory made for the next run's cache: its people's, in the order it listed them.
    struct Made: Sendable, Equatable {
        let count: Int
        let pieces: [Piece]
        /// The run before's file, which the kept pieces are copied from.
        let source: PreparationCache?
        /// Each entry's person's display position (`SiteDirectory.people`), when the directory set them: the next run
        /// starts its display order from the kept people's (`SiteDirectory.displayOrder(_:previousCount:)`).
        var ranks: [UInt32]?

        /// Hands the entries to `write` a piece at a time, kept bytes a mebibyte at a time with their pages handed
        /// back after (they are the mapped file's), then the ranks (a flag, and a number an entry); returns how many
        /// bytes were written and the error code that stopped it, if any.
        func write(_ write: (UnsafeRawBufferPointer) -> Int32?) -> (size: Int, failed: Int32?) {
            var size = 0
            for piece in pieces {
                switch piece {
                case .made(let bytes):
                    if let failed = bytes.withUnsafeBytes(write) { return (size, failed) }
                    size += bytes.count
                case .kept(let range):
                    guard let source else { return (size, EINVAL) }
                    var start = range.lowerBound
                    while start < range.upperBound {
                        let end = min(range.upperBound, start + 1 << 20)
                        if let failed = source.withBytes(start..<end, write) { return (size, failed) }
                        size += end - start
                        start = end
                    }
                }
            }
            var ranked: [UInt8] = [ranks?.count == count ? 1 : 0]
            if let ranks, ranks.count == count { BinaryRecord.append(contentsOf: ranks, to: &ranked) }
            if let failed = ranked.withUnsafeBytes(write) { return (size, failed) }
            return (size + ranked.count, nil)
        }

        static func == (lhs: Made, rhs: Made) -> Bool {
            lhs.count == rhs.count && lhs.pieces == rhs.pieces && lhs.source?.file === rhs.source?.file
                && lhs.ranks == rhs.ranks
        }
    }
}

extension BinaryReader {
    /// A string or a missing one (`PreparationCache.absent`): nil when the bytes do not read, `.some(nil)` when
    /// the string is missing.
    mutating func optionalString() -> String?? {
        guard remaining >= 4 else { return nil }
        if UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            == PreparationCache.absent
        {
            offset += 4
            return .some(nil)
        }
        return string().map { .some($0) }
    }

    /// Moves past a length-prefixed string without reading it (with `optional`, also past a missing one, its length
    /// `PreparationCache.absent` alone); false when it is cut short.
    mutating func skipString(optional: Bool = false) -> Bool {
        guard let length: UInt32 = number() else { return false }
        if optional, length == PreparationCache.absent { return true }
        guard Int(length) <= remaining else { return false }
        offset += Int(length)
        return true
    }

    /// Moves past a string `string()` (or, when `optional`, `optionalString()`) would read, checking its length and
    /// its UTF-8 without making it; false where it would read nil. (`skipString(optional:)` checks the length alone.)
    mutating func checkString(optional: Bool = false) -> Bool {
        let start = offset
        guard skipString(optional: optional) else { return false }
        // A missing string (`absent`) or an empty one is its length alone.
        guard offset - start > 4 else { return true }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<offset])
        return raw.withMemoryRebound(to: UInt8.self) { bytes in
            bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
        }
    }
}
