import Dispatch
import Foundation

/// The canonical file format.
///
/// ```
/// {"metadata":{…},"people":[
/// {…person 1…},
/// {…person 2…}
/// ]}
/// ```
/// It is plain JSON (any JSON tool reads it), but laid out one person per line: `diff` and `grep` work on it,
/// and orgdir can split the people into chunks at line breaks and decode them on all cores. A raw line break
/// never occurs inside a JSON string (it is written `\n`), so every line break in the file is a separator.
extension Snapshot {
    /// The schema this orgdir writes and the newest it reads.
    public static let currentSchemaVersion = 1

    private static let headerPrefix = Array(#"{"metadata":"#.utf8)
    private static let headerSuffix = Array(#","people":["#.utf8)
    private static let footer = Array("]}\n".utf8)
    private static let newline = UInt8(ascii: "\n")
    private static let comma = UInt8(ascii: ",")

    /// An encoder producing the canonical form: sorted keys, unescaped slashes, ISO-8601 whole-second dates.
    static func canonicalEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder matching `canonicalEncoder()`.
    static func canonicalDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The canonical bytes: identical for identical snapshots, on every run and every machine.
    public func canonicalData() throws(SnapshotError) -> Data {
        var data = Data()
        try writeCanonical { (piece: Data) throws(SnapshotError) in data.append(piece) }
        return data
    }

    /// The people section alone, one person per line: what a delta run and a full run of the same directory
    /// must agree on byte for byte (their metadata differs: times, sync kind).
    public func canonicalPeopleData() -> Data {
        var data = Data()
        Self.encodePeople(people) { data.append($0) }
        return data
    }

    /// Hands the canonical bytes to `emit` in pieces of a few megabytes, in order, so saving a million people
    /// never holds the whole file in memory.
    ///
    /// With `previous` (the snapshot before, with the file it was read from), the lines of people equal to theirs
    /// there are copied from that file rather than encoded: the same bytes (see `SnapshotSource`).
    func writeCanonical(
        reusing previous: SnapshotSource? = nil,
        _ emit: (Data) throws(SnapshotError) -> Void
    ) throws(SnapshotError) {
        let header: Data
        do {
            header = try Self.canonicalEncoder().encode(metadata)
        } catch {
            throw .encodingFailed(reason: String(describing: error))
        }
        try emit(Data(Self.headerPrefix) + header + Data(Self.headerSuffix) + Data([Self.newline]))
        var failure: SnapshotError?
        let emitPeople = { (piece: Data) in
            guard failure == nil else { return }
            do throws(SnapshotError) {
                try emit(piece)
            } catch {
                failure = error
            }
        }
        if let previous, previous.isReusable, let lines = previous.objectRanges(),
            SnapshotLineReuse.encodesAlike(previous.snapshot.people, lines: lines, in: previous.bytes)
        {
            let pieces =
                previous.plan
                ?? SnapshotLineReuse.plan(old: previous.snapshot.people, new: people, unequal: previous.unequal)
            Self.writePeople(people, pieces: pieces, copyingFrom: previous.bytes, lines: lines, emitPeople)
        } else {
            Self.encodePeople(people, emitPeople)
        }
        if let failure { throw failure }
        try emit(Data(Self.footer))
    }

    /// The people lines made of `pieces`: copied runs handed on as slices of `source` (a mapped file: no copy),
    /// in pieces of at most `pieceSize`, and the others encoded.
    private static func writePeople(
        _ people: [User], pieces: [SnapshotLineReuse.Piece], copyingFrom source: Data, lines: [Range<Int>],
        _ emit: (Data) -> Void
    ) {
        let pieceSize = 4 << 20
        var out: [UInt8] = []
        var written = 0
        func separate() {
            written += 1
            if written != people.count { out.append(comma) }
            out.append(newline)
        }
        func flush() {
            if !out.isEmpty { emit(Data(out)) }
            out.removeAll(keepingCapacity: true)
        }
        for piece in pieces {
            switch piece {
            case .copied(let run):
                flush()
                let bytes = lines[run.lowerBound].lowerBound..<lines[run.upperBound - 1].upperBound
                for start in stride(from: bytes.lowerBound, to: bytes.upperBound, by: pieceSize) {
                    let end = min(start + pieceSize, bytes.upperBound)
                    emit(source[(source.startIndex + start)..<(source.startIndex + end)])
                }
                written += run.count - 1
                separate()
            case .encoded(let index):
                SnapshotUserCodec.append(people[index], to: &out)
                separate()
                if out.count >= pieceSize { flush() }
            }
        }
        flush()
    }

    /// Encodes people one per line (`{…},\n`, and `{…}\n` for the last) in batches: each batch is split over
    /// the cores, and its pieces are handed to `emit` in order before the next batch starts.
    private static func encodePeople(_ people: [User], _ emit: (Data) -> Void) {
        let parts = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let partSize = 4_096
        for batchStart in stride(from: 0, to: people.count, by: parts * partSize) {
            let batchEnd = min(batchStart + parts * partSize, people.count)
            let ranges = stride(from: batchStart, to: batchEnd, by: partSize).map { $0..<min($0 + partSize, batchEnd) }
            let results = ChunkResults<Data>(count: ranges.count)
            ParallelWork.perform(iterations: ranges.count) { part in
                var out: [UInt8] = []
                out.reserveCapacity(ranges[part].count * 600)
                for index in ranges[part] {
                    SnapshotUserCodec.append(people[index], to: &out)
                    if index != people.count - 1 { out.append(comma) }
                    out.append(newline)
                }
                results.set(part, .success(Data(out)))
            }
            results.drain { emit($0) }
        }
    }

    /// Reads a snapshot from its bytes. `path` names the file in error messages.
    ///
    /// Canonical files take a fast path (header alone, then people decoded in parallel chunks); anything else
    /// that is valid JSON with the same structure (say, a pretty-printed copy) is read the slow way.
    public static func decode(_ data: Data, path: String) throws(SnapshotError) -> Snapshot {
        try decodeWithBody(data, path: path).snapshot
    }

    /// `decode`, with the byte range of the people lines when the file is canonical (nil otherwise).
    static func decodeWithBody(_ data: Data, path: String) throws(SnapshotError) -> (
        snapshot: Snapshot, body: Range<Int>?
    ) {
        let parts = data.withUnsafeBytes { canonicalParts(UnsafeRawBufferPointer($0)) }
        guard let parts else { return (try decodeGeneric(data, path: path), nil) }
        let metadata = try decodeMetadata(data.subdata(in: parts.metadata), path: path)
        let people = try decodePeople(data, lines: parts.body, path: path)
        guard people.count == metadata.counts.people else {
            throw .corrupt(
                path: path,
                reason: "it holds \(people.count) people but its metadata counts \(metadata.counts.people)")
        }
        return (Snapshot(metadata: metadata, people: people), parts.body)
    }

    /// Reads only the metadata from the first line of a canonical file (used to list snapshots cheaply).
    /// Returns nil when `prefix` does not start with a complete canonical header.
    static func decodeHeader(_ prefix: Data, path: String) throws(SnapshotError) -> SnapshotMetadata? {
        guard let newlineIndex = prefix.firstIndex(of: newline) else { return nil }
        let line = prefix[prefix.startIndex..<newlineIndex]
        guard line.starts(with: headerPrefix), line.count > headerPrefix.count + headerSuffix.count,
            line.suffix(headerSuffix.count).elementsEqual(headerSuffix)
        else { return nil }
        let start = line.startIndex + headerPrefix.count
        let end = line.endIndex - headerSuffix.count
        return try decodeMetadata(Data(prefix[start..<end]), path: path)
    }

    /// Byte ranges of the metadata object and of the people lines, or nil when the layout is not canonical.
    static func canonicalParts(_ bytes: UnsafeRawBufferPointer) -> (metadata: Range<Int>, body: Range<Int>)? {
        guard let firstNewline = bytes.firstIndex(of: newline) else { return nil }
        let header = bytes[0..<firstNewline]
        guard header.starts(with: headerPrefix), header.count > headerPrefix.count + headerSuffix.count,
            header.suffix(headerSuffix.count).elementsEqual(headerSuffix)
        else { return nil }
        guard bytes.count >= firstNewline + 1 + footer.count,
            bytes[(bytes.count - footer.count)...].elementsEqual(footer)
        else { return nil }
        let metadata = headerPrefix.count..<(firstNewline - headerSuffix.count)
        let body = (firstNewline + 1)..<(bytes.count - footer.count)
        return (metadata, body)
    }

    /// Decodes metadata, refusing a newer schema before trying to understand the rest.
    static func decodeMetadata(_ data: Data, path: String) throws(SnapshotError) -> SnapshotMetadata {
        let decoder = canonicalDecoder()
        if let probe = try? decoder.decode(SchemaProbe.self, from: data), probe.schemaVersion > currentSchemaVersion {
            throw .newerSchema(path: path, found: probe.schemaVersion, supported: currentSchemaVersion)
        }
        do {
            return try decoder.decode(SnapshotMetadata.self, from: data)
        } catch {
            throw .corrupt(path: path, reason: "metadata: " + describe(error))
        }
    }

    /// Decodes the people lines in parallel chunks, each wrapped into a JSON array of its own.
    private static func decodePeople(_ data: Data, lines body: Range<Int>, path: String) throws(SnapshotError)
        -> [User]
    {
        if body.isEmpty { return [] }
        let pieces = data.withUnsafeBytes { splitAtLineBreaks(UnsafeRawBufferPointer($0), body: body) }
        if let people = decodeInPlace(data, pieces: pieces) { return people }
        let results = ChunkResults<[User]>(count: pieces.count)
        ParallelWork.perform(iterations: pieces.count) { chunk in
            let range = pieces[chunk]
            if let users = try? data.withUnsafeBytes({ bytes throws(SnapshotUserCodec.Unsupported) in
                try SnapshotUserCodec.readUsers(UnsafeRawBufferPointer(bytes), range: range)
            }) {
                results.set(chunk, .success(users))
                return
            }
            // Not the canonical subset: JSONDecoder reads it (and explains what is wrong, if anything is).
            let trimmed = withoutSeparators(range) { data[$0] }
            var json = Data(capacity: trimmed.count + 2)
            json.append(UInt8(ascii: "["))
            json.append(data[trimmed])
            json.append(UInt8(ascii: "]"))
            do {
                results.set(chunk, .success(try canonicalDecoder().decode([User].self, from: json)))
            } catch {
                results.set(chunk, .failure(error))
            }
        }
        if let error = results.firstError { throw .corrupt(path: path, reason: "people: " + describe(error)) }
        // Move each chunk into the result and let it go at once: a million people must not be held twice.
        var people: [User] = []
        results.drain { chunk in
            if people.isEmpty { people.reserveCapacity(chunk.count * pieces.count) }
            people.append(contentsOf: chunk)
        }
        return people
    }

    /// The people of a canonical file, one a line, decoded by every core straight into their places in the
    /// result (see `ParallelArray`): appending each core's list to one copied every record and released the lists,
    /// on one core between two parallel passes. Nil when a piece is not one canonical person a line.
    ///
    /// On threads of their own (`ParallelWork.performOnOwnThreads`): a nightly decodes the snapshot while its delta
    /// round is fetched, and on GCD's workers the round's responses waited for the decode to end.
    private static func decodeInPlace(_ data: Data, pieces: [Range<Int>]) -> [User]? {
        let lineCounts = ChunkResults<Int>(count: pieces.count)
        ParallelWork.performOnOwnThreads(iterations: pieces.count) { chunk in
            let count = data.withUnsafeBytes { bytes in
                lineCount(UnsafeRawBufferPointer(rebasing: bytes[pieces[chunk]]))
            }
            lineCounts.set(chunk, .success(count))
        }
        var ranges: [Range<Int>] = []
        lineCounts.drain { count in
            let start = ranges.last?.upperBound ?? 0
            ranges.append(start..<(start + count))
        }
        guard ranges.count == pieces.count, let total = ranges.last?.upperBound else { return nil }
        return ParallelArray.make(count: total, ranges: ranges, onOwnThreads: true) { chunk, slots in
            data.withUnsafeBytes { bytes in
                SnapshotUserCodec.readUsers(UnsafeRawBufferPointer(bytes), range: pieces[chunk], into: slots)
            }
        }
    }

    /// `range` of people lines without the separators (commas, line breaks) at its end, `byte` reading the bytes:
    /// what `JSONDecoder` is given when the canonical reader gives up on a piece or a line.
    static func withoutSeparators(_ range: Range<Int>, byte: (Int) -> UInt8) -> Range<Int> {
        var trimmed = range
        while let last = trimmed.last, byte(last) == newline || byte(last) == comma {
            trimmed = trimmed.lowerBound..<last
        }
        return trimmed
    }

    /// The lines in `bytes`: its line breaks, and one more when the last byte is not one.
    ///
    /// Why `memchr`: counted a byte at a time through the slice's `reduce`, the line breaks of a 100,000-person
    /// snapshot were some 18 of 1,000 samples of a nightly (`Benchmarks/profile-nightly.sh`), before its decode.
    static func lineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, let last = bytes.last else { return 0 }
        var count = 0
        var start = 0
        while start < bytes.count,
            let found = memchr(base + start, Int32(newline), bytes.count - start)
        {
            count += 1
            start = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return count + (last == newline ? 0 : 1)
    }

    /// Splits the people lines into chunks of about a mebibyte (at most sixteen a core), at line breaks only.
    ///
    /// Why so many: a nightly decodes beside its delta round's fetch, and the cores finish their last chunks apart.
    /// With four chunks a core (some 6 MB each at 100,000 people), one core decoded the last chunk alone for about
    /// 20 ms of a 100,000-person nightly (`Benchmarks/profile-nightly.sh`), a fifth of the decode.
    private static func splitAtLineBreaks(_ bytes: UnsafeRawBufferPointer, body: Range<Int>) -> [Range<Int>] {
        let wanted = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 16, body.count / 1_048_576))
        let step = body.count / wanted
        var pieces: [Range<Int>] = []
        var start = body.lowerBound
        for piece in 1..<wanted {
            var cut = max(start, body.lowerBound + piece * step)
            while cut < body.upperBound, bytes[cut] != newline { cut += 1 }
            guard cut < body.upperBound else { break }
            pieces.append(start..<(cut + 1))
            start = cut + 1
        }
        if start < body.upperBound { pieces.append(start..<body.upperBound) }
        return pieces
    }

    /// Reads a non-canonical layout with one plain decode (after refusing a newer schema).
    private static func decodeGeneric(_ data: Data, path: String) throws(SnapshotError) -> Snapshot {
        let decoder = canonicalDecoder()
        if let probe = try? decoder.decode(SnapshotProbe.self, from: data),
            probe.metadata.schemaVersion > currentSchemaVersion
        {
            throw .newerSchema(path: path, found: probe.metadata.schemaVersion, supported: currentSchemaVersion)
        }
        do {
            let snapshot = try decoder.decode(Snapshot.self, from: data)
            return Snapshot(metadata: snapshot.metadata, people: snapshot.people)
        } catch {
            throw .corrupt(path: path, reason: describe(error))
        }
    }

    /// A readable reason from a Foundation decoding error (Linux otherwise prints raw dumps).
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
        case DecodingError.keyNotFound(let key, let context):
            return "missing '\(key.stringValue)' at \(codingPath(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.debugDescription) at \(codingPath(context))"
        default:
            return String(describing: error)
        }
    }

    private static func codingPath(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the top level" : path
    }
}

/// Just enough of the metadata to read the schema version of any snapshot, old or new.
private struct SchemaProbe: Decodable {
    var schemaVersion: Int
}

/// Just enough of a whole snapshot to read its schema version.
private struct SnapshotProbe: Decodable {
    var metadata: SchemaProbe
}

/// Results of a `concurrentPerform`, one slot per chunk, filled from several threads.
final class ChunkResults<Value>: @unchecked Sendable {
    // @unchecked: the slots are only touched under `lock`.
    private var slots: [Value?]
    private var errors: [(index: Int, error: any Error)] = []
    private let lock = NSLock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        switch result {
        case .success(let value): slots[index] = value
        case .failure(let error): errors.append((index, error))
        }
    }

    /// The error of the earliest failed chunk, if any failed.
    var firstError: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return errors.min { $0.index < $1.index }?.error
    }

    /// Hands each value to `body` in chunk order, releasing it as it goes.
    func drain(_ body: (Value) -> Void) {
        for index in slots.indices {
            lock.lock()
            let value = slots[index]
            slots[index] = nil
            lock.unlock()
            if let value { body(value) }
        }
    }
}
