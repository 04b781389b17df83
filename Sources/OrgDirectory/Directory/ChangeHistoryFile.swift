import Foundation

/// The on-disk form of a `ChangeHistory`: JSON Lines, one record per line, read and written by the fast codec.
///
/// ```
/// {"latestSnapshot":"2026-03-08T02-00-00Z.json","reports":2,"schemaVersion":1}
/// {"changed":1,"joiners":1,"leavers":0,"new":{…},"old":{…}}      one line per report, then its people:
/// {…joiner…}                                                      `joiners` lines of users,
/// {…change…}                                                      `leavers` lines of users, `changed` lines
/// ["2026-01-04T02:00:00Z","id1","id2"]                              `earlier` lines, when the header counts any
/// ```
/// With retention pruning snapshots, the header also holds `since` (`ChangeHistory.since`) and counts the lines of
/// `ChangeHistory.earlier` after the reports: one per date, oldest first, the date and then the ids (in id order)
/// whose newest dropped change it is. A history that never dropped a night has neither, as before they existed.
/// Why not one JSON document through JSONEncoder: the history is read on every run and a reorganization can put
/// tens of thousands of people into one night; at Linux JSONDecoder speeds 60,000 leavers took seconds to read
/// back, each night until retention dropped them. Every line is still plain JSON for other tools.
enum ChangeHistoryFile {
    /// The format this orgdir writes and the newest it reads.
    static let schemaVersion = 1

    /// The first line.
    private struct Header: Codable {
        var earlier: Int?
        var latestSnapshot: String?
        var reports: Int
        var schemaVersion: Int
        var since: Date?
    }

    /// The line before each report's people.
    private struct ReportHeader: Codable {
        var changed: Int
        var joiners: Int
        var leavers: Int
        var new: DiffReport.Side
        var old: DiffReport.Side
    }

    /// The file's bytes; identical histories give identical bytes.
    static func encode(_ history: ChangeHistory) throws(SnapshotError) -> Data {
        let encoder = Snapshot.canonicalEncoder()
        var out: [UInt8] = []
        do {
            let earlier = earlierLines(history.earlier)
            let header = Header(
                earlier: earlier.isEmpty ? nil : earlier.count, latestSnapshot: history.latestSnapshot,
                reports: history.entries.count, schemaVersion: schemaVersion, since: history.since)
            out.append(contentsOf: try encoder.encode(header))
            out.append(UInt8(ascii: "\n"))
            for report in history.entries { try append(report, to: &out, encoder) }
            for line in earlier { out.append(contentsOf: line) }
        } catch {
            throw .encodingFailed(reason: String(describing: error))
        }
        return Data(out)
    }

    /// One report's lines: its header, then its people.
    private static func append(_ report: DiffReport, to out: inout [UInt8], _ encoder: JSONEncoder) throws {
        let diff = report.diff
        let line = ReportHeader(
            changed: diff.changed.count, joiners: diff.joiners.count, leavers: diff.leavers.count,
            new: report.new, old: report.old)
        out.append(contentsOf: try encoder.encode(line))
        out.append(UInt8(ascii: "\n"))
        for user in diff.joiners + diff.leavers {
            SnapshotUserCodec.append(user, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        for change in diff.changed {
            SnapshotUserCodec.append(change, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// The file `encode` makes of the history in `file` once it records `report`, keeps only the nights whose
    /// older snapshot is in `retained` (`ChangeHistory.recording`, then `retaining`, which folds the others into
    /// `earlier`) and starts `since`, made from `file`'s own lines: the nights kept are copied as they are, only their
    /// header lines read, and so are the `earlier` lines when no night goes (`since` nil keeps the file's). Nil when `file` is not a history this
    /// orgdir wrote that ends where `report` starts.
    ///
    /// Why: recording a night decoded every retained night's people and encoded them all again, after the publish;
    /// the history grows every night, and at forty nights of 1 % churn among 100,000 people that was 59 ms of a
    /// nightly run, 1.5 ms more each night (`Benchmarks/nightly-rounds.sh ORGDIR 100000 40`).
    static func appending(_ report: DiffReport, to file: Data, retained: Set<String>, since: Date?) -> Data? {
        let lines = file.withUnsafeBytes { lineRanges(UnsafeRawBufferPointer($0)) }
        let decoder = Snapshot.canonicalDecoder()
        func decoded<Value: Decodable>(_ type: Value.Type, at line: Int) -> Value? {
            line < lines.count ? try? decodeLine(type, file, lines[line], decoder, "") : nil
        }
        guard let header = decoded(Header.self, at: 0), header.schemaVersion == schemaVersion,
            header.latestSnapshot == report.old.name, (header.earlier ?? 0) >= 0
        else { return nil }
        var kept: [Range<Int>] = []
        var dropped: [DiffReport] = []
        var cursor = 1
        for _ in 0..<header.reports {
            guard let night = decoded(ReportHeader.self, at: cursor), night.joiners >= 0, night.leavers >= 0,
                night.changed >= 0, case let last = cursor + night.joiners + night.leavers + night.changed,
                last < lines.count
            else { return nil }
            if retained.contains(night.old.name) {
                kept.append(lines[cursor].lowerBound..<lines[last].upperBound)
            } else {
                // Only a dropped night's people are read: their ids and the night's date go into `earlier`.
                guard let people = try? decodedPeople(night, file, lines, from: cursor + 1, decoder, path: "") else {
                    return nil
                }
                dropped.append(DiffReport(old: night.old, new: night.new, diff: people))
            }
            cursor = last + 1
        }
        let earlierCount = header.earlier ?? 0
        guard cursor + earlierCount == lines.count else { return nil }
        let recorded = !report.diff.isEmpty && retained.contains(report.old.name)
        if !recorded && !report.diff.isEmpty { dropped.append(report) }
        var earlierBytes: [[UInt8]]
        if dropped.isEmpty {
            earlierBytes = lines[cursor...].map { Array(file[$0]) + [UInt8(ascii: "\n")] }
        } else if let folded = foldingEarlierLines(file, lines[cursor...], dropped) {
            earlierBytes = folded
        } else {
            guard let earlier = try? decodeEarlier(file, lines[cursor...], path: "") else { return nil }
            earlierBytes = earlierLines(earlier.folding(dropped))
        }
        let encoder = Snapshot.canonicalEncoder()
        var out: [UInt8] = []
        do {
            let newHeader = Header(
                earlier: earlierBytes.isEmpty ? nil : earlierBytes.count, latestSnapshot: report.new.name,
                reports: kept.count + (recorded ? 1 : 0), schemaVersion: schemaVersion, since: since ?? header.since)
            out.append(contentsOf: try encoder.encode(newHeader))
            out.append(UInt8(ascii: "\n"))
            file.withUnsafeBytes { bytes in
                for night in kept {
                    out.append(contentsOf: bytes[night])
                    out.append(UInt8(ascii: "\n"))
                }
            }
            if recorded { try append(report, to: &out, encoder) }
            for line in earlierBytes { out.append(contentsOf: line) }
            earlierBytes = []
        } catch {
            return nil
        }
        return Data(out)
    }

    /// The people of the night whose header `night` is, from its first people line `first` (the lines its counts
    /// name, none negative, all in `lines`); `path` names the file in errors.
    private static func decodedPeople(
        _ night: ReportHeader, _ data: Data, _ lines: [Range<Int>], from first: Int, _ decoder: JSONDecoder,
        path: String
    ) throws(SnapshotError) -> DirectoryDiff {
        func range(_ start: Int, _ count: Int) -> Range<Int> {
            count == 0 ? 0..<0 : lines[start].lowerBound..<lines[start + count - 1].upperBound
        }
        let people = try read(
            data, range(first, night.joiners + night.leavers), decoder, path, fast: SnapshotUserCodec.readUsers)
        let changes = try read(
            data, range(first + night.joiners + night.leavers, night.changed), decoder, path,
            fast: SnapshotUserCodec.readChanges)
        return DirectoryDiff(
            joiners: Array(people.prefix(night.joiners)), leavers: Array(people.dropFirst(night.joiners)),
            changed: changes)
    }

    /// `ChangeHistory.earlier` as its lines, each ending in a line break: one per date, oldest first, the date and
    /// then its ids in id order.
    private static func earlierLines(_ earlier: [String: Date]) -> [[UInt8]] {
        guard !earlier.isEmpty else { return [] }
        let idsByDate = Dictionary(grouping: earlier.keys) { earlier[$0] ?? .distantPast }
        let formatter = ISO8601DateFormatter()
        return idsByDate.keys.sorted().map { date in
            earlierLine(formatter.string(from: date), (idsByDate[date] ?? []).sorted(by: User.idPrecedes))
        }
    }

    /// `earlierLines` of the `earlier` lines in `lines` with `nights` folded in (`[String: Date].folding`), made
    /// line by line: a line none of the nights' people are on is copied as it is, one they are on loses them, and the
    /// nights' own dates come after, each its own new line. Nil when that would not give `earlierLines`' bytes (a
    /// night not newer than every line, or a line that does not read), for the caller to fold the decoded history.
    ///
    /// Why: with retention every run past the limit drops a night, and after some months nearly everyone is in
    /// `earlier`. Decoded, folded and sorted whole, 100,000 ids there made recording the night 120–220 ms of
    /// the run (4–5 ms without them), after the publish; the nights dropped hold only the few who changed then.
    private static func foldingEarlierLines(
        _ file: Data, _ lines: ArraySlice<Range<Int>>, _ nights: [DiffReport]
    ) -> [[UInt8]]? {
        let folded = [String: Date]().folding(nights)
        var touched = Set(folded.keys)
        for night in nights { touched.formUnion(night.diff.leavers.map(\.id)) }
        let formatter = ISO8601DateFormatter()
        var newest: Date?
        var out: [[UInt8]] = []
        out.reserveCapacity(lines.count + nights.count)
        // The people touched, as bytes in byte order: a line's ids are looked up among them without a String each.
        let touchedBytes = touched.map { Array($0.utf8) }.sorted { left, right in
            left.withUnsafeBytes { l in right.withUnsafeBytes { r in ByteOrder.compare(l, r) < 0 } }
        }
        // Their first eight bytes, a filter in front of the search: for ids such as Graph's (random hex first) it
        // answers nearly every id of a line without a comparison of bytes.
        let prefixes = Set(touchedBytes.compactMap(Self.prefix))
        let done: Bool = file.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            func isTouched(_ id: Range<Int>) -> Bool {
                let bytes = UnsafeRawBufferPointer(rebasing: raw[id])
                if let prefix = Self.prefix(bytes), !prefixes.contains(prefix) { return false }
                var low = 0
                var high = touchedBytes.count
                while low < high {
                    let middle = (low + high) / 2
                    let order = touchedBytes[middle].withUnsafeBytes { ByteOrder.compare($0, bytes) }
                    if order == 0 { return true }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return false
            }
            for line in lines {
                // A line with an escaped string goes through the reader, one String per id.
                guard let strings = plainStrings(raw, line) else {
                    guard let rewritten = foldingEscapedLine(raw, line, touched, formatter, &newest) else {
                        return false
                    }
                    out.append(contentsOf: rewritten)
                    continue
                }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw[strings[0]]), as: UTF8.self)
                guard let date = formatter.date(from: text) else { return false }
                newest = newest.map { max($0, date) } ?? date
                let ids = strings.dropFirst()
                guard ids.contains(where: isTouched) else {
                    out.append(Array(raw[line]) + [UInt8(ascii: "\n")])
                    continue
                }
                var rewritten: [UInt8] = [UInt8(ascii: "[")]
                rewritten.append(contentsOf: raw[(strings[0].lowerBound - 1)...strings[0].upperBound])
                var kept = 0
                for id in ids where !isTouched(id) {
                    rewritten.append(UInt8(ascii: ","))
                    rewritten.append(contentsOf: raw[(id.lowerBound - 1)...id.upperBound])
                    kept += 1
                }
                rewritten.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "\n")])
                if kept > 0 { out.append(rewritten) }
            }
            return true
        }
        guard done else { return nil }
        let groups = Dictionary(grouping: folded.keys) { folded[$0] ?? .distantPast }
        for date in groups.keys.sorted() {
            guard newest.map({ date > $0 }) ?? true else { return nil }
            out.append(earlierLine(formatter.string(from: date), (groups[date] ?? []).sorted(by: User.idPrecedes)))
        }
        return out
    }

    /// An id's first eight bytes as one number; nil for a shorter id.
    private static func prefix(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard bytes.count >= 8 else { return nil }
        return bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The byte ranges of the strings of an `earlier` line (quotes left out), the date's first, when none of them
    /// holds an escape (as every id Graph gives); nil otherwise, or when the line is not such an array.
    private static func plainStrings(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> [Range<Int>]? {
        var index = line.lowerBound
        guard index < line.upperBound, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var ranges: [Range<Int>] = []
        while true {
            guard index < line.upperBound, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < line.upperBound, bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") || bytes[end] < 0x20 { return nil }
                end += 1
            }
            guard end < line.upperBound else { return nil }
            ranges.append(start..<end)
            index = end + 1
            guard index < line.upperBound else { return nil }
            if bytes[index] == UInt8(ascii: "]") { return index + 1 == line.upperBound ? ranges : nil }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// `foldingEarlierLines` for one line holding an escaped string, read through the reader: the line as it is, or
    /// without the `touched` ids (none when it loses them all); nil when it does not read.
    private static func foldingEscapedLine(
        _ bytes: UnsafeRawBufferPointer, _ line: Range<Int>, _ touched: Set<String>,
        _ formatter: ISO8601DateFormatter, _ newest: inout Date?
    ) -> [[UInt8]]? {
        guard let values = earlierStrings(bytes, line), let text = values.first, let date = formatter.date(from: text)
        else { return nil }
        newest = newest.map { max($0, date) } ?? date
        let ids = values.dropFirst()
        guard ids.contains(where: touched.contains) else { return [Array(bytes[line]) + [UInt8(ascii: "\n")]] }
        let kept = ids.filter { !touched.contains($0) }
        return kept.isEmpty ? [] : [earlierLine(text, kept)]
    }

    /// The strings of the `earlier` line at `line` through the fast reader (the date's text first); nil when the line
    /// is not one array of strings the reader takes, for JSONDecoder to read or explain.
    private static func earlierStrings(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> [String]? {
        var reader = SnapshotUserCodec.Reader(bytes: bytes, index: line.lowerBound, end: line.upperBound)
        guard let values = try? reader.stringArray() else { return nil }
        reader.skipWhitespace()
        return reader.index == line.upperBound ? values : nil
    }

    /// One `earlier` line: the date's text, then the ids as given, ending in a line break.
    private static func earlierLine(_ date: String, _ ids: some Sequence<String>) -> [UInt8] {
        var line: [UInt8] = [UInt8(ascii: "[")]
        SnapshotUserCodec.appendString(date, to: &line)
        for id in ids {
            line.append(UInt8(ascii: ","))
            SnapshotUserCodec.appendString(id, to: &line)
        }
        line.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "\n")])
        return line
    }

    /// The `earlier` lines in `lines` (see `earlierLines`).
    private static func decodeEarlier(
        _ data: Data, _ lines: ArraySlice<Range<Int>>, path: String
    ) throws(SnapshotError) -> [String: Date] {
        let formatter = ISO8601DateFormatter()
        var earlier: [String: Date] = [:]
        // A Graph id takes 39 bytes of a line (quotes and comma), so a byte in 32 leaves room: grown from empty, the
        // table was copied over and over (a fifth of reading 100,000 ids).
        earlier.reserveCapacity(lines.reduce(0) { $0 + $1.count } / 32)
        for line in lines {
            let fast = data.withUnsafeBytes { earlierStrings(UnsafeRawBufferPointer($0), line) }
            let values: [String]
            if let fast {
                values = fast
            } else {
                values = try decodeLine([String].self, data, line, Snapshot.canonicalDecoder(), path)
            }
            guard let text = values.first, let date = formatter.date(from: text) else {
                throw .corrupt(path: path, reason: "an earlier-changes line does not start with a date")
            }
            for id in values.dropFirst() { earlier[id] = date }
        }
        return earlier
    }

    /// Reads a history file; `path` names it in errors.
    static func decode(_ data: Data, path: String) throws(SnapshotError) -> ChangeHistory {
        let lines = data.withUnsafeBytes { lineRanges(UnsafeRawBufferPointer($0)) }
        guard let first = lines.first else { throw .corrupt(path: path, reason: "the file is empty") }
        let decoder = Snapshot.canonicalDecoder()
        let header = try decodeLine(Header.self, data, first, decoder, path)
        guard header.schemaVersion <= schemaVersion else {
            throw .newerSchema(path: path, found: header.schemaVersion, supported: schemaVersion)
        }
        var history = ChangeHistory(latestSnapshot: header.latestSnapshot, since: header.since)
        var cursor = 1
        /// The next `count` lines as one byte range.
        func take(_ count: Int) throws(SnapshotError) -> Range<Int> {
            guard count >= 0, cursor + count <= lines.count else {
                throw .corrupt(path: path, reason: "it ends before the records its headers count")
            }
            defer { cursor += count }
            return count == 0 ? 0..<0 : lines[cursor].lowerBound..<lines[cursor + count - 1].upperBound
        }
        for _ in 0..<header.reports {
            let reportHeader = try decodeLine(ReportHeader.self, data, take(1), decoder, path)
            guard reportHeader.joiners >= 0, reportHeader.leavers >= 0, reportHeader.changed >= 0 else {
                throw .corrupt(path: path, reason: "a report counts fewer than no people")
            }
            let first = cursor
            _ = try take(reportHeader.joiners + reportHeader.leavers + reportHeader.changed)
            let diff = try decodedPeople(reportHeader, data, lines, from: first, decoder, path: path)
            history.entries.append(DiffReport(old: reportHeader.old, new: reportHeader.new, diff: diff))
        }
        let earlierCount = header.earlier ?? 0
        guard earlierCount >= 0, cursor + earlierCount <= lines.count else {
            throw .corrupt(path: path, reason: "it ends before the earlier changes its header counts")
        }
        guard cursor + earlierCount == lines.count else {
            throw .corrupt(path: path, reason: "\(lines.count - cursor - earlierCount) lines after the last report")
        }
        history.earlier = try decodeEarlier(data, lines[cursor...], path: path)
        return history
    }

    /// The ranges of the non-empty lines.
    private static func lineRanges(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
            if index > start { ranges.append(start..<index) }
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    private static func decodeLine<Value: Decodable>(
        _ type: Value.Type, _ data: Data, _ range: Range<Int>, _ decoder: JSONDecoder, _ path: String
    ) throws(SnapshotError) -> Value {
        do {
            return try decoder.decode(type, from: data.subdata(in: range))
        } catch {
            throw .corrupt(path: path, reason: Snapshot.describe(error))
        }
    }

    /// Records in `range` through the fast reader, or line by line through JSONDecoder when it gives up.
    private static func read<Value: Decodable>(
        _ data: Data, _ range: Range<Int>, _ decoder: JSONDecoder, _ path: String,
        fast: (UnsafeRawBufferPointer, Range<Int>) throws(SnapshotUserCodec.Unsupported) -> [Value]
    ) throws(SnapshotError) -> [Value] {
        if range.isEmpty { return [] }
        if let values = try? data.withUnsafeBytes({ bytes throws(SnapshotUserCodec.Unsupported) in
            try fast(UnsafeRawBufferPointer(bytes), range)
        }) {
            return values
        }
        let lines = data.withUnsafeBytes { lineRanges(UnsafeRawBufferPointer(rebasing: $0[range])) }
        var values: [Value] = []
        for line in lines {
            let absolute = (range.lowerBound + line.lowerBound)..<(range.lowerBound + line.upperBound)
            values.append(try decodeLine(Value.self, data, absolute, decoder, path))
        }
        return values
    }
}
