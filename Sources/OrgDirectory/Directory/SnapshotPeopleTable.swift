import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The people of the newest snapshot in a binary form, kept in the state folder beside it (`snapshot-people.bin`): a
/// nightly run reads its people from here instead of decoding the snapshot's JSON.
///
/// Why: the JSON decode was a 100,000-person nightly's first 80 ms, 84 of its 748 samples on both cores, most of them
/// finding where each key and value ends (`Benchmarks/profile-nightly.sh`, 2026-11-29). Reading the JSON only as far as
/// a night needs did not pay, since every byte is still scanned (Benchmarks README, 13:45). Here each value is a length
/// and its bytes, and the people come in chunks whose places the file lists at its end, read on every core.
///
/// The snapshot stays the record: its JSON is what `diff`, the history and any other tool read. The table is trusted
/// only beside the snapshot it was written with (`Stamp`: the snapshot's name, its file's size and modification time,
/// its number of people), by the same build (`context`), and only when every entry reads whole and ends where its
/// chunk does and a sample of the snapshot's lines holds the same people (`agrees`, which `SnapshotStore` asks); for
/// anything else the run decodes the JSON as before.
enum SnapshotPeopleTable {
    /// The file's name in the state folder.
    static let fileName = "snapshot-people.bin"
    /// People a chunk, the unit read on one core, as tables are written (a table names its own in its trailer).
    static let chunkSize = 4_096

    private static let magic = Array("orgdir-snapshot-people\n".utf8)
    /// The length written for a missing optional string.
    private static let absent = UInt32.max

    /// The build the table must have been written by: a table's bytes are this build's encoding of a `User`.
    static let context = FingerprintInput.stateCache("orgdir-snapshot-people/1", hiding: []).fingerprint

    /// What the table says about the snapshot file it was written beside.
    struct Stamp: Equatable, Sendable {
        /// The snapshot's name (`SnapshotEntry.name`).
        var snapshot: String
        var size: UInt64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var count: Int

        /// The stamp of the snapshot file at `path`, named `snapshot`, holding `count` people; nil when it cannot be
        /// read. The file is the one the run wrote (renamed into place later: a rename keeps both size and time).
        init?(file path: String, snapshot: String, count: Int) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.snapshot = snapshot
            size = UInt64(status.st_size)
            #if canImport(Darwin)
                modifiedSeconds = Int64(status.st_mtimespec.tv_sec)
                modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
            #else
                modifiedSeconds = Int64(status.st_mtim.tv_sec)
                modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
            #endif
            self.count = count
        }

        init(snapshot: String, size: UInt64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, count: Int) {
            self.snapshot = snapshot
            self.size = size
            self.modifiedSeconds = modifiedSeconds
            self.modifiedNanoseconds = modifiedNanoseconds
            self.count = count
        }
    }

    /// A table read whole: its file and where each entry starts (then where the last ends), kept so that the next
    /// table copies the entries of people whose record did not change, as the snapshot copies their lines.
    struct Source: Sendable {
        let file: MappedFile
        let starts: [Int]
    }

    // MARK: Reading

    /// The people of the table at `path` and the table itself, when it was written by this build beside the snapshot
    /// `stamp` describes and every entry reads; nil otherwise (the caller decodes the snapshot).
    static func read(path: String, expecting stamp: Stamp) -> (people: [User], source: Source)? {
        guard stamp.count > 0, let file = MappedFile(path: path) else { return nil }
        let bytes = file.bytes
        var header = BinaryReader(bytes: bytes)
        guard header.take(magic.count).elementsEqual(magic), header.digest() == context,
            header.string() == stamp.snapshot, header.number() == stamp.size,
            header.number() == stamp.modifiedSeconds, header.number() == stamp.modifiedNanoseconds,
            let count: UInt32 = header.number(), Int(count) == stamp.count,
            let (chunkSize, chunks) = chunkOffsets(bytes, entriesStart: header.offset, count: stamp.count)
        else { return nil }
        let ranges = stride(from: 0, to: stamp.count, by: chunkSize).map { $0..<min(stamp.count, $0 + chunkSize) }
        var starts = [Int](repeating: 0, count: stamp.count + 1)
        starts[stamp.count] = chunks[chunks.count - 1]
        let people = starts.withUnsafeMutableBufferPointer { starts in
            let found = EntryStarts(buffer: starts)
            return ParallelArray.make(count: stamp.count, ranges: ranges, onOwnThreads: true) { chunk, slots in
                readChunk(
                    file.bytes, from: chunks[chunk], to: chunks[chunk + 1], into: slots,
                    starts: UnsafeMutableBufferPointer(rebasing: found.buffer[ranges[chunk]]))
            }
        }
        guard let people else { return nil }
        return (people, Source(file: file, starts: starts))
    }

    /// Whether `people` (read from a table) hold what `samples` lines spread over the snapshot's people lines
    /// (`body` of `json`) say, each line decoded and its person found by id: a table and a snapshot that disagree (a
    /// table damaged where its lengths still fit, or written wrongly) are caught before anything is built on them, for
    /// some 64 lines' decoding. A snapshot of no more people than `samples` has every line checked. A line that does
    /// not read as one person counts as a disagreement (the JSON is then decoded whole, which says what is wrong with
    /// it, if anything is).
    static func agrees(
        _ people: [User], withLinesOf json: UnsafeRawBufferPointer, body: Range<Int>, samples: Int = 64
    ) -> Bool {
        guard !body.isEmpty else { return people.isEmpty }
        let newline = UInt8(ascii: "\n")
        /// Checks the line holding `offset`; returns where it ends, nil when it disagrees.
        func checkLine(holding offset: Int) -> Int? {
            var (start, end) = (offset, offset)
            while start > body.lowerBound, json[start - 1] != newline { start -= 1 }
            while end < body.upperBound, json[end] != newline { end += 1 }
            guard let person = line(json, start..<end), let index = people.indexSortedByID(of: person.id),
                people[index] == person
            else { return nil }
            return end
        }
        var next = body.lowerBound
        let step = people.count <= samples ? 1 : body.count / samples
        while next < body.upperBound {
            guard let end = checkLine(holding: next) else { return false }
            // The next line when every line is checked, else the line holding the next sample (one past this line).
            next = step == 1 ? end + 1 : max(end + 1, next + step)
        }
        return true
    }

    /// The person on the people line `range` of `json` (its separator included or not): read by the canonical reader,
    /// else by `JSONDecoder` (a key it leaves alone, such as an escaped one in `extra`); nil when it is not one person.
    private static func line(_ json: UnsafeRawBufferPointer, _ range: Range<Int>) -> User? {
        if let read = try? SnapshotUserCodec.readUsers(json, range: range), read.count == 1 { return read[0] }
        let trimmed = Snapshot.withoutSeparators(range) { json[$0] }
        return try? Snapshot.canonicalDecoder().decode(User.self, from: Data(json[trimmed]))
    }

    /// The people a chunk, and where each chunk's entries start, then where the last ends, from the file's trailer:
    /// nil unless there is one offset a chunk, in order, between the entries' start and the trailer.
    private static func chunkOffsets(
        _ bytes: UnsafeRawBufferPointer, entriesStart: Int, count: Int
    ) -> (chunkSize: Int, offsets: [Int])? {
        guard bytes.count >= entriesStart + 8 else { return nil }
        var end = BinaryReader(bytes: bytes, offset: bytes.count - 8)
        guard let trailer: UInt64 = end.number(), trailer >= entriesStart, trailer <= bytes.count - 8 else {
            return nil
        }
        var reader = BinaryReader(bytes: bytes, offset: Int(trailer))
        guard let size: UInt32 = reader.number(), size > 0 else { return nil }
        let chunkCount = (count + Int(size) - 1) / Int(size)
        guard reader.number() == UInt32(chunkCount), reader.remaining == (chunkCount + 1) * 8 + 8 else { return nil }
        var offsets: [Int] = []
        offsets.reserveCapacity(chunkCount + 1)
        var last = entriesStart
        for _ in 0...chunkCount {
            guard let offset: UInt64 = reader.number(), offset >= last, offset <= trailer else { return nil }
            last = Int(offset)
            offsets.append(last)
        }
        guard offsets.first == entriesStart, offsets.last == Int(trailer) else { return nil }
        return (Int(size), offsets)
    }

    /// The people of one chunk, `bytes[start..<end]`, into `slots`, with where each entry starts; exact when they fill
    /// the slots and end at `end`.
    private static func readChunk(
        _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into slots: UnsafeMutableBufferPointer<User>,
        starts: UnsafeMutableBufferPointer<Int>
    ) -> (initialized: Int, exact: Bool) {
        var reader = EntryReader(bytes: bytes, index: start, end: end)
        for slot in slots.indices {
            starts[slot] = reader.index
            guard let user = reader.user() else { return (slot, false) }
            slots.initializeElement(at: slot, to: user)
        }
        return (slots.count, reader.index == end)
    }

    /// The place each chunk writes its entries' starts into: chunks write apart, each only its own range.
    private struct EntryStarts: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Int>
    }

    /// A cursor over one chunk's entries, refusing to read past its end.
    private struct EntryReader {
        let bytes: UnsafeRawBufferPointer
        var index: Int
        let end: Int

        mutating func number<Number: FixedWidthInteger>() -> Number? {
            let size = MemoryLayout<Number>.size
            guard end - index >= size else { return nil }
            defer { index += size }
            return Number(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: Number.self))
        }

        /// A length-prefixed string: made straight from its bytes (a table holds what this build wrote, valid UTF-8).
        mutating func optionalString() -> String?? {
            guard let length: UInt32 = number() else { return nil }
            if length == SnapshotPeopleTable.absent { return .some(nil) }
            guard Int(length) <= end - index else { return nil }
            defer { index += Int(length) }
            return .some(
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + Int(length))]), as: UTF8.self))
        }

        mutating func string() -> String? {
            guard case .some(.some(let text)) = optionalString() else { return nil }
            return text
        }

        mutating func strings() -> [String]? {
            guard let count: UInt32 = number(), Int(count) <= (end - index) / 4 else { return nil }
            var values: [String] = []
            values.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let value = string() else { return nil }
                values.append(value)
            }
            return values
        }

        /// One entry, in `SnapshotPeopleTable.append(_:to:)`'s order.
        mutating func user() -> User? {
            guard let id = string(), let userPrincipalName = string(), let displayName = string(),
                case .some(let givenName) = optionalString(), case .some(let surname) = optionalString(),
                case .some(let mail) = optionalString(), let businessPhones = strings(),
                case .some(let mobilePhone) = optionalString(), case .some(let jobTitle) = optionalString(),
                case .some(let department) = optionalString(), case .some(let officeLocation) = optionalString(),
                case .some(let companyName) = optionalString(), let enabled: UInt8 = number(), enabled <= 2,
                case .some(let userType) = optionalString(), case .some(let employeeId) = optionalString(),
                case .some(let preferredLanguage) = optionalString(), let hasManager: UInt8 = number(),
                hasManager <= 1
            else { return nil }
            var manager: ManagerReference?
            if hasManager == 1 {
                guard let managerID = string(), case .some(let managerName) = optionalString() else { return nil }
                manager = ManagerReference(id: managerID, displayName: managerName)
            }
            guard let extraCount: UInt32 = number(), Int(extraCount) <= (end - index) / 8 else { return nil }
            var extra: [String: String] = [:]
            if extraCount > 0 { extra.reserveCapacity(Int(extraCount)) }
            for _ in 0..<extraCount {
                guard let key = string(), let value = string() else { return nil }
                extra[key] = value
            }
            return User(
                id: id, userPrincipalName: userPrincipalName, displayName: displayName, givenName: givenName,
                surname: surname, mail: mail, businessPhones: businessPhones, mobilePhone: mobilePhone,
                jobTitle: jobTitle, department: department, officeLocation: officeLocation, companyName: companyName,
                accountEnabled: enabled == 2 ? nil : enabled == 1, userType: userType, employeeId: employeeId,
                preferredLanguage: preferredLanguage, manager: manager, extra: extra)
        }
    }

    // MARK: Writing

    /// Writes the table of `people` (the snapshot's, in its order), stamped `stamp`, into `out`. With `previous` (the
    /// table the run read, and `SnapshotLineReuse.plan` of its snapshot's people and `people`), the entries of people
    /// the plan copies are appended as they lie in that table's mapping, run by run (a `PieceBuffer` with a raw
    /// writer hands the long runs on without gathering them). `chunkSize` is another only in tests, for chunks that
    /// end inside the copied runs.
    static func write<Failure: Error>(
        _ people: [User], stamp: Stamp, previous: (source: Source, pieces: [SnapshotLineReuse.Piece])?,
        chunkSize: Int = SnapshotPeopleTable.chunkSize, to out: inout PieceBuffer<Failure>
    ) throws(Failure) {
        out.bytes += magic
        BinaryRecord.append(context, to: &out.bytes)
        BinaryRecord.append(stamp.snapshot, to: &out.bytes)
        BinaryRecord.append(stamp.size, to: &out.bytes)
        BinaryRecord.append(stamp.modifiedSeconds, to: &out.bytes)
        BinaryRecord.append(stamp.modifiedNanoseconds, to: &out.bytes)
        BinaryRecord.append(UInt32(people.count), to: &out.bytes)
        var chunkStarts: [UInt64] = []
        chunkStarts.reserveCapacity(people.count / chunkSize + 2)
        func encode(_ index: Int) throws(Failure) {
            if index % chunkSize == 0 { chunkStarts.append(UInt64(out.position)) }
            append(people[index], to: &out.bytes)
            try out.flushIfFull()
        }
        if let previous {
            let starts = previous.source.starts
            var next = 0
            for piece in previous.pieces {
                switch piece {
                case .encoded(let index):
                    try encode(index)
                    next = index + 1
                case .copied(let run):
                    // The run's entries as they lie in the previous table, noting where each chunk it holds starts.
                    let first = starts[run.lowerBound]
                    let firstInRun = (chunkSize - next % chunkSize) % chunkSize
                    for offset in stride(from: firstInRun, to: run.count, by: chunkSize) {
                        chunkStarts.append(UInt64(out.position + starts[run.lowerBound + offset] - first))
                    }
                    try out.append(
                        UnsafeRawBufferPointer(rebasing: previous.source.file.bytes[first..<starts[run.upperBound]]))
                    next += run.count
                }
            }
        } else {
            for index in people.indices { try encode(index) }
        }
        let trailer = UInt64(out.position)
        chunkStarts.append(trailer)
        BinaryRecord.append(UInt32(chunkSize), to: &out.bytes)
        BinaryRecord.append(UInt32(chunkStarts.count - 1), to: &out.bytes)
        for start in chunkStarts { BinaryRecord.append(start, to: &out.bytes) }
        BinaryRecord.append(trailer, to: &out.bytes)
        try out.flushIfFull()
    }

    /// Appends `user`'s entry: each field in `User.Record`'s order, strings length-prefixed (`absent` for none), the
    /// account flag a byte (0, 1, 2 for none), the manager a byte and its fields, `extra` its count and its pairs in
    /// key order (so that equal records give equal bytes, which copying entries relies on).
    static func append(_ user: User, to out: inout [UInt8]) {
        func optional(_ text: String?) {
            if let text { BinaryRecord.append(text, to: &out) } else { BinaryRecord.append(absent, to: &out) }
        }
        BinaryRecord.append(user.id, to: &out)
        BinaryRecord.append(user.userPrincipalName, to: &out)
        BinaryRecord.append(user.displayName, to: &out)
        optional(user.givenName)
        optional(user.surname)
        optional(user.mail)
        let phones = user.businessPhones
        BinaryRecord.append(UInt32(phones.count), to: &out)
        for phone in phones { BinaryRecord.append(phone, to: &out) }
        optional(user.mobilePhone)
        optional(user.jobTitle)
        optional(user.department)
        optional(user.officeLocation)
        optional(user.companyName)
        out.append(user.accountEnabled.map { $0 ? 1 : 0 } ?? 2)
        optional(user.userType)
        optional(user.employeeId)
        optional(user.preferredLanguage)
        if let manager = user.manager {
            out.append(1)
            BinaryRecord.append(manager.id, to: &out)
            optional(manager.displayName)
        } else {
            out.append(0)
        }
        let extra = user.extra
        BinaryRecord.append(UInt32(extra.count), to: &out)
        for key in extra.keys.sorted() {
            BinaryRecord.append(key, to: &out)
            BinaryRecord.append(extra[key] ?? "", to: &out)
        }
    }
}
