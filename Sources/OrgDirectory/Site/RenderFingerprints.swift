#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every person's render fingerprint from one run, by Graph id, as kept in the state folder between runs.
///
/// It only ever speeds a run up: a file that is missing, unreadable, from another orgdir version or for
/// another output folder is ignored, and everyone is rendered.
public struct RenderFingerprints: Sendable, Equatable {
    /// The published folder these fingerprints describe (absolute, standardized path).
    public let output: String
    /// By id, for lookups; empty for fingerprints a render made until `indexed()`, and for a file whose lines are
    /// in id order (`idOrdered`).
    private(set) var byID: [String: RenderFingerprint]
    /// A file's lines, when their ids ascend (the order a run writes them in): looked up by merging them with a
    /// directory's people (`byPosition(in:idOrder:)`), without a map of ids.
    private(set) var idOrdered: IDOrderedLines?
    /// For fingerprints a render made: the display positions in id order (`SiteDirectory.displayPositionsInIDOrder`),
    /// the order `encode` writes them in when known.
    private var madeIDOrder: [Int]?
    /// Every person's slug, when each is known (a render's own, and a file's), for `staleSlugs(in:)`.
    private(set) var slugs: [String]?
    /// How many people the render made, ids it could not store and repeated ids included; nil when unknown.
    /// Only when it equals the number of slugs known does the list name every person file of the site.
    private(set) var peopleMade: Int?
    /// The fingerprints a render made, chunk by chunk in display order, which `encoded()` keeps; nil when read
    /// from a file (then ids are sorted). Held as the render's chunks and indexed only on demand: at a million
    /// people a flat copy and an index nobody reads were about 70 MB at the end of the build, where the peak is.
    private var made: [[Entry]]?
    /// Where `encode` copies lines from, for fingerprints a render made (see `LineSource`).
    private var copiedLines: LineSource?
    /// What the pages shared when these were made, stamped with the snapshot the run recorded: the next run carries
    /// the fingerprints of the people its changes do not reach only when its own is the same (`PageReach`). Nil when
    /// unknown (a render not given its `PageReach`, and a file without it): then nothing is carried.
    var context: PageContext?

    /// One person's fingerprint as a render made it, with the slug their files are named by. The id and the slug
    /// are nil for someone whose line `encode` copies from an earlier file (`LineSource.copies(count:)`): reaching
    /// each person's id in the render, in a place of its own, was a retain and a cache miss for each of a hundred
    /// thousand people (some 22 of 1,100 samples of a nightly, `Benchmarks/profile-nightly.sh`) for lines nobody
    /// writes, and so was the slug.
    typealias Entry = (id: String?, fingerprint: RenderFingerprint, slug: String?)

    /// The first line of the file: names the format and its version.
    static let header = "orgdir render fingerprints 3"

    init(output: String, byID: [String: RenderFingerprint] = [:]) {
        self.output = output
        self.byID = byID
    }

    /// Fingerprints in the order a render made them, in its chunks (an id twice: the last counts); look them
    /// up only through `indexed()`.
    /// `copying`: an earlier file's lines by display position, whose lines `encode` copies where the fingerprint is
    /// the same (the line then is too: the fingerprint covers the record, id included, and the slug).
    init(output: String, inOrder chunks: [[Entry]], idOrder: [Int]? = nil, copying lines: LineSource? = nil) {
        self.output = output
        byID = [:]
        made = chunks
        peopleMade = chunks.reduce(0) { $0 + $1.count }
        madeIDOrder = idOrder?.count == peopleMade ? idOrder : nil
        copiedLines = lines.flatMap { lines in peopleMade.map(lines.copies(count:)) == true ? lines : nil }
    }

    /// These fingerprints with their lookup index built (made by a render, they have none until asked).
    func indexed() -> RenderFingerprints {
        guard let made, byID.isEmpty else { return self }
        var indexed = self
        indexed.byID.reserveCapacity(made.reduce(0) { $0 + $1.count })
        for chunk in made {
            for entry in chunk { if let id = entry.id { indexed.byID[id] = entry.fingerprint } }
        }
        let slugs = made.flatMap { $0.compactMap(\.slug) }
        indexed.slugs = slugs.count == indexed.peopleMade ? slugs : nil
        return indexed
    }

    public static func == (left: RenderFingerprints, right: RenderFingerprints) -> Bool {
        left.output == right.output && left.allByID() == right.allByID()
    }

    /// Every fingerprint by id, however they are held (comparisons).
    private func allByID() -> [String: RenderFingerprint] {
        guard let idOrdered else { return indexed().byID }
        return Dictionary(
            (0..<idOrdered.count).map { (idOrdered.id($0), idOrdered.fingerprints[$0]) }, uniquingKeysWith: { $1 })
    }

    /// People with a fingerprint.
    public var count: Int { idOrdered?.count ?? indexed().byID.count }

    /// The fingerprint of the person with `id`; call on `indexed()` fingerprints (a render's own have no index
    /// and answer nil, which only costs rendering).
    func fingerprint(of id: String) -> RenderFingerprint? {
        if let idOrdered { return idOrdered.line(of: id).map { idOrdered.fingerprints[$0] } }
        return byID[id]
    }

    /// Each of `directory`'s people's fingerprint here, by display position (nil for those without one); with
    /// `idOrder` (`SiteDirectory.displayPositionsInIDOrder`), a file in id order is merged with the people instead
    /// of looked up id by id. Call on `indexed()` fingerprints.
    func byPosition(in directory: SiteDirectory, idOrder: [Int]?) -> [RenderFingerprint?] {
        byPosition(in: directory, idOrder: idOrder, keepingLines: false).fingerprints
    }

    /// `byPosition(in:idOrder:)`, and with `keepingLines`, when the file's lines were merged with the people, where
    /// each person's line is (`LineSource`, for `encode` to copy the lines that stay as they are).
    func byPosition(
        in directory: SiteDirectory, idOrder: [Int]?, keepingLines: Bool
    ) -> (fingerprints: [RenderFingerprint?], lines: LineSource?) {
        var found = [RenderFingerprint?](repeating: nil, count: directory.people.count)
        if let idOrdered, let idOrder {
            var lines = keepingLines ? [Int32](repeating: -1, count: directory.people.count) : []
            idOrdered.merge(directory, order: idOrder) { match in
                guard case .both(let position, let line) = match else { return }
                found[position] = idOrdered.fingerprints[line]
                if keepingLines { lines[position] = Int32(truncatingIfNeeded: line) }
            }
            return (found, keepingLines ? LineSource(lines: idOrdered, lineAtPosition: lines) : nil)
        } else {
            for (position, person) in directory.people.enumerated() {
                found[position] = fingerprint(of: person.user.id)
            }
        }
        return (found, nil)
    }

    /// The lines of an earlier run's file and, by display position of a directory, each person's line there (-1 for
    /// none): a line whose fingerprint a render made again is the line `encode` would write, so it is copied.
    ///
    /// Why: written from the render's own entries, in id order while the render made them in display order, each
    /// line reached an entry, an id and a slug in places of their own, retained and released: 47 of some 1,130
    /// samples of a 100,000-person nightly (`Benchmarks/profile-nightly.sh`), in the stage after the publish. The
    /// file's lines are in id order too: consecutive lines that stay are one run of its text (`LineText`), copied
    /// whole.
    struct LineSource: Sendable {
        let lines: IDOrderedLines
        let lineAtPosition: [Int32]

        /// Whether `encode` copies from these lines for a render of `count` people: they kept their file's text
        /// (`LineText`: read from a mapped file) and every line has its slug, and the positions are the render's. A
        /// render leaves out the ids of the people it finds here only when it does; otherwise it writes every line
        /// itself.
        func copies(count: Int) -> Bool {
            lines.text != nil && lines.slugs != nil && lineAtPosition.count == count
        }
    }

    /// The file's text: the header, the orgdir version, the output folder, the number of people the render made,
    /// the pages' context (`PageContext.lines`, or two lines saying it is unknown), then `<hex> <slug>/<id>` per line (a slug never
    /// holds a `/`; empty when unknown) in id order: a render's own in its directory's id order (`madeIDOrder`, laid
    /// out, not sorted: sorting a hundred thousand ids was most of writing the file), or in the order it made them
    /// when that is unknown. Ids that could break a line are left out: those people are simply rendered next time.
    /// Why id order: the next run merges the file with its people (`IDOrderedLines`) instead of mapping every id.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode { out += $0 }
        return out
    }

    /// `encoded()` handed to `emit` in pieces of about `pieceSize` bytes: at a million people the whole text is
    /// 72 MB, at the end of the build, where the peak is.
    func encode<Failure: Error>(
        pieceSize: Int = 1 << 16, _ emit: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        // The pieces go through the project's `PieceBuffer`; `emit` outlives nothing here.
        try withoutActuallyEscaping(emit) { emit throws(Failure) in
            var out = PieceBuffer<Failure>(pieceSize: pieceSize, emit: emit)
            try encodeLines(into: &out)
            try out.flush()
        }
    }

    /// `encode`'s text, a line at a time into `out`.
    private func encodeLines<Failure: Error>(into out: inout PieceBuffer<Failure>) throws(Failure) {
        out.bytes += Array("\(Self.header)\nversion \(OrgDirVersion.current)\noutput \(output)\n".utf8)
        out.bytes += Array("people \(peopleMade.map(String.init) ?? "unknown")\n".utf8)
        let contextLines = context.flatMap { $0.snapshot.contains(where: \.isNewline) ? nil : $0.lines }
        out.bytes += Array("\(contextLines ?? "context unknown\nlengthened unknown")\n".utf8)
        /// One line, `hex slug/id`.
        func append(_ digest: RenderFingerprint, slug: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer) {
            digest.appendHex(to: &out.bytes)
            out.bytes.append(UInt8(ascii: " "))
            out.bytes.append(contentsOf: slug)
            out.bytes.append(UInt8(ascii: "/"))
            out.bytes.append(contentsOf: id)
            out.bytes.append(UInt8(ascii: "\n"))
        }
        func line(_ id: String, _ fingerprint: RenderFingerprint, _ slug: String?) throws(Failure) {
            let slug = slug.flatMap { Self.isStorable(slug: $0) ? $0 : nil } ?? ""
            slug.withUTF8Bytes { slug in
                id.withUTF8Bytes { id in
                    append(fingerprint, slug: UnsafeRawBufferPointer(slug), id: UnsafeRawBufferPointer(id))
                }
            }
            try out.flushIfFull()
        }
        if let made, let madeIDOrder {
            // Where each display position's entry is among the chunks (a flat copy of the entries retained and
            // released every id and slug once more).
            var chunkOf: [(chunk: Int32, offset: Int32)] = []
            chunkOf.reserveCapacity(madeIDOrder.count)
            for (chunk, entries) in made.enumerated() {
                for offset in entries.indices { chunkOf.append((Int32(chunk), Int32(offset))) }
            }
            // The earlier file's parts taken out once, not reached through it on every line.
            let lineAt = copiedLines?.lineAtPosition ?? []
            let copiedFingerprints = copiedLines?.lines.fingerprints ?? []
            let copiedText = copiedLines?.lines.text
            // Lines copied from the earlier file's text and not yet appended: consecutive there, so one run of it.
            var pending: Range<Int>?
            func appendPending() throws(Failure) {
                guard let run = pending, let copiedText else { return }
                pending = nil
                try out.append(copiedText.bytes(ofLines: run))
            }
            for position in madeIDOrder {
                let (chunk, offset) = chunkOf[position]
                // The fingerprint read in place: copying the entry retained its id and its slug.
                let fingerprint = made[Int(chunk)].withUnsafeBufferPointer { $0[Int(offset)].fingerprint }
                if copiedText != nil, case let line = Int(lineAt[position]), line >= 0,
                    copiedFingerprints[line] == fingerprint
                {
                    if let run = pending, run.upperBound == line {
                        pending = run.lowerBound..<(line + 1)
                    } else {
                        try appendPending()
                        pending = line..<(line + 1)
                    }
                    continue
                }
                try appendPending()
                let entry = made[Int(chunk)][Int(offset)]
                if let id = entry.id, Self.isStorable(id) { try line(id, entry.fingerprint, entry.slug) }
            }
            try appendPending()
        } else if let made {
            for chunk in made {
                for entry in chunk {
                    if let id = entry.id, Self.isStorable(id) { try line(id, entry.fingerprint, entry.slug) }
                }
            }
        } else if let idOrdered {
            for index in 0..<idOrdered.count {
                try line(idOrdered.id(index), idOrdered.fingerprints[index], idOrdered.slug(index))
            }
        } else {
            for (id, fingerprint) in Self.inIDOrder(byID) { try line(id, fingerprint, nil) }
        }
    }

    /// Reads `encoded()`'s text; nil when it is not this format, not this orgdir version, or not for `output`.
    /// With `slugs: false` the slugs are not kept (only the fingerprints of the site a run updates in place are
    /// asked for them, by `staleSlugs(in:)`).
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, output: String, slugs: Bool = true
    ) -> RenderFingerprints? {
        decode(bytes, output: output, slugs: slugs, keeping: nil)
    }

    /// `decode(_:output:slugs:)` of a mapped `file`, which the lines keep (`LineText`, its pages handed back once
    /// read): lines read with their slugs are the ones a run copies into its own file (`LineSource`).
    static func decode(_ file: MappedFile, output: String) -> RenderFingerprints? {
        defer { file.release(0..<file.bytes.count) }
        return decode(file.bytes, output: output, slugs: true, keeping: file)
    }

    /// `decode(_:output:slugs:)`, the lines keeping `file` (whose bytes `bytes` are) when it is given.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, output: String, slugs: Bool, keeping file: MappedFile?
    ) -> RenderFingerprints? {
        guard let base = bytes.baseAddress else { return nil }
        var start = 0
        /// The next line, without its line break; nil at the end or for a last line without one.
        func nextLine() -> UnsafeRawBufferPointer? {
            guard start < bytes.count,
                let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            let end = base.distance(to: UnsafeRawPointer(found))
            defer { start = end + 1 }
            return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        }
        func text(_ line: UnsafeRawBufferPointer?) -> String? { line.map { String(decoding: $0, as: UTF8.self) } }
        guard text(nextLine()) == header, text(nextLine()) == "version \(OrgDirVersion.current)",
            text(nextLine()) == "output \(output)", let people = nextLine(), people.starts(with: "people ".utf8),
            let context = text(nextLine()), context.hasPrefix("context "), let lengthened = text(nextLine()),
            lengthened.hasPrefix("lengthened")
        else { return nil }
        var lines: [(fingerprint: RenderFingerprint, slug: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer)] = []
        lines.reserveCapacity(bytes.count / 80)
        var lineStarts: [Int] = []
        if file != nil { lineStarts.reserveCapacity(bytes.count / 80 + 1) }
        while start < bytes.count {
            if file != nil { lineStarts.append(start) }
            guard let line = nextLine(), line.count > 33, line[32] == UInt8(ascii: " "),
                let fingerprint = RenderFingerprint(hexBytes: UnsafeRawBufferPointer(rebasing: line.prefix(32))),
                let slash = line[33...].firstIndex(of: UInt8(ascii: "/"))
            else { return nil }
            lines.append(
                (
                    fingerprint, UnsafeRawBufferPointer(rebasing: line[33..<slash]),
                    UnsafeRawBufferPointer(rebasing: line[(slash + 1)...])
                ))
        }
        var decoded = RenderFingerprints(output: output)
        lineStarts.append(start)
        if let ordered = IDOrderedLines(
            lines: lines, slugs: slugs, text: file.map { LineText($0, lineStarts: lineStarts) })
        {
            decoded.idOrdered = ordered
        } else {
            // Another order (an older run's): a map of ids.
            var byID: [String: RenderFingerprint] = [:]
            byID.reserveCapacity(lines.count)
            var slugList: [String]? = slugs ? [] : nil
            slugList?.reserveCapacity(lines.count)
            for line in lines {
                byID[String(decoding: line.id, as: UTF8.self)] = line.fingerprint
                if line.slug.isEmpty {
                    slugList = nil
                } else {
                    slugList?.append(String(decoding: line.slug, as: UTF8.self))
                }
            }
            decoded.byID = byID
            // Every line a person with a slug, each id once.
            decoded.slugs = slugList?.count == byID.count ? slugList : nil
        }
        decoded.peopleMade = Int(String(decoding: people.dropFirst(7), as: UTF8.self))
        decoded.context = PageContext(line: context[...], lengthenedLine: lengthened[...])
        return decoded
    }

    private static func isStorable(_ id: String) -> Bool {
        !id.isEmpty && !id.utf8.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }

    /// Whether `slug` can stand before the `/` of a line (slugs are made of letters, digits and dashes).
    private static func isStorable(slug: String) -> Bool {
        !slug.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }

    /// The slugs of the person files these fingerprints' site has that `directory`'s has not: people who left,
    /// and old names of people whose slug changed, unless someone in `directory` now has that slug. Nil when
    /// these fingerprints do not name every person file (an id that could not be stored or came twice, or a slug
    /// unknown): then only a look at the folder itself can tell. Call on `indexed()` fingerprints.
    ///
    /// Why: a nightly run updating the spare site found these by listing the spare's `people/` folder, some
    /// 300,000 names, and checking each against everyone's slug; the spare's own fingerprints already say which
    /// files it has.
    ///
    /// With `idOrder` and a file in id order, the lines are merged with the people: a line's slug is stale when
    /// its person left or now has another slug, unless someone who joined or changed slug now has it. (Anyone
    /// else keeps their own slug from the same line, and a site's slugs are unique, `Slug.assign`.)
    func staleSlugs(in directory: SiteDirectory, idOrder: [Int]? = nil) -> Set<String>? {
        if let idOrdered {
            guard idOrdered.slugs != nil, peopleMade == idOrdered.count else { return nil }
            guard let idOrder = idOrder ?? directory.displayPositionsInIDOrder() else {
                let current = Set(directory.people.map(\.slug))
                return Set((0..<idOrdered.count).compactMap { idOrdered.slug($0) }.filter { !current.contains($0) })
            }
            var candidates: [String] = []
            var taken = Set<String>()
            idOrdered.merge(directory, order: idOrder) { match in
                switch match {
                case .both(let position, let line):
                    let slug = directory.people[position].slug
                    guard !idOrdered.slug(at: line, equals: slug) else { return }
                    if let old = idOrdered.slug(line) { candidates.append(old) }
                    taken.insert(slug)
                case .personOnly(let position):
                    taken.insert(directory.people[position].slug)
                case .lineOnly(let line):
                    if let old = idOrdered.slug(line) { candidates.append(old) }
                }
            }
            return Set(candidates.filter { !taken.contains($0) })
        }
        guard let slugs, let peopleMade, peopleMade == slugs.count, peopleMade == byID.count else { return nil }
        let current = Set(directory.people.map(\.slug))
        return Set(slugs.filter { !current.contains($0) })
    }

    /// `staleSlugs(in:idOrder:)` from `merged`, these lines by `directory`'s display positions (the merge
    /// `byPosition(in:idOrder:keepingLines:)` made), rather than merging them with the people again: a line's slug is
    /// stale when no person has the line, or its person has another slug now, unless someone who joined or changed
    /// slug has it. The slug of a person `sameSlug` says kept theirs (their fingerprint is the line's, and a
    /// fingerprint covers the slug) is not read at all. Nil where `staleSlugs(in:idOrder:)` is.
    ///
    /// Why: the second merge read everyone's id, and the comparison everyone's slug, each a string nothing else
    /// reached in that stretch of a nightly run: some 20 of its 650 samples (`Benchmarks/profile-ab.sh`).
    func staleSlugs(in directory: SiteDirectory, merged: LineSource, sameSlug: (Int) -> Bool) -> Set<String>? {
        guard let idOrdered, merged.lines.count == idOrdered.count, idOrdered.slugs != nil,
            peopleMade == idOrdered.count,
            merged.lineAtPosition.count == directory.people.count
        else { return nil }
        var reached = [Bool](repeating: false, count: idOrdered.count)
        var candidates: [String] = []
        var taken = Set<String>()
        for position in merged.lineAtPosition.indices {
            let line = Int(merged.lineAtPosition[position])
            guard line >= 0 else {
                taken.insert(directory.people[position].slug)
                continue
            }
            reached[line] = true
            guard !sameSlug(position) else { continue }
            let slug = directory.people[position].slug
            guard !idOrdered.slug(at: line, equals: slug) else { continue }
            if let old = idOrdered.slug(line) { candidates.append(old) }
            taken.insert(slug)
        }
        for line in reached.indices where !reached[line] {
            if let old = idOrdered.slug(line) { candidates.append(old) }
        }
        return Set(candidates.filter { !taken.contains($0) })
    }

    /// The storable entries in the byte order of their ids: sorted by each id's first eight bytes as a number,
    /// whole ids compared only where those are equal (comparing the strings was most of writing the file).
    private static func inIDOrder(_ byID: [String: RenderFingerprint]) -> [(String, RenderFingerprint)] {
        let entries = byID.filter { isStorable($0.key) }.map { ($0.key, $0.value) }
        let prefixes = entries.map { id, _ in
            var prefix: UInt64 = 0
            var count = 0
            for byte in id.utf8.prefix(8) {
                prefix = prefix << 8 | UInt64(byte)
                count += 1
            }
            return count == 8 ? prefix : prefix << UInt64(8 * (8 - count))
        }
        let order = entries.indices.sorted { left, right in
            prefixes[left] != prefixes[right]
                ? prefixes[left] < prefixes[right]
                : entries[left].0.utf8.lexicographicallyPrecedes(entries[right].0.utf8)
        }
        return order.map { entries[$0] }
    }
}
