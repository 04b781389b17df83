import Foundation

/// The on-disk form of a `ChangeHistory`: JSON Lines, one record per line, read and written by the fast codec.
///
/// ```
/// {"latestSnapshot":"2026-03-08T02-00-00Z.json","reports":2,"schemaVersion":1}
/// {"changed":1,"joiners":1,"leavers":0,"new":{…},"old":{…}}      one line per report, then its people:
/// {…joiner…}                                                      `joiners` lines of users,
/// {…change…}                                                      `leavers` lines of users, `changed` lines
/// ```
/// Why not one JSON document through JSONEncoder: the history is read on every run and a reorganization can put
/// tens of thousands of people into one night; at Linux JSONDecoder speeds 60,000 leavers took seconds to read
/// back, each night until retention dropped them. Every line is still plain JSON for other tools.
enum ChangeHistoryFile {
    /// The format this orgdir writes and the newest it reads.
    static let schemaVersion = 1

    /// The first line.
    private struct Header: Codable {
        var latestSnapshot: String?
        var reports: Int
        var schemaVersion: Int
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
            let header = Header(
                latestSnapshot: history.latestSnapshot, reports: history.entries.count, schemaVersion: schemaVersion)
            out.append(contentsOf: try encoder.encode(header))
            out.append(UInt8(ascii: "\n"))
            for report in history.entries { try append(report, to: &out, encoder) }
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

    /// The file `encode` makes of the history in `file` once it records `report` and keeps only the nights whose
    /// older snapshot is in `retained` (`ChangeHistory.recording`, then `retaining`), made from `file`'s own lines:
    /// the nights kept are copied as they are, only their header lines read. Nil when `file` is not a history this
    /// orgdir wrote that ends where `report` starts.
    ///
    /// Why: recording a night decoded every retained night's people and encoded them all again, after the publish;
    /// the history grows every night, and at forty nights of 1 % churn among 100,000 people that was 59 ms of a
    /// nightly run, 1.5 ms more each night (`Benchmarks/nightly-rounds.sh ORGDIR 100000 40`).
    static func appending(_ report: DiffReport, to file: Data, retained: Set<String>) -> Data? {
        let lines = file.withUnsafeBytes { lineRanges(UnsafeRawBufferPointer($0)) }
        let decoder = Snapshot.canonicalDecoder()
        func decoded<Value: Decodable>(_ type: Value.Type, at line: Int) -> Value? {
            line < lines.count ? try? decodeLine(type, file, lines[line], decoder, "") : nil
        }
        guard let header = decoded(Header.self, at: 0), header.schemaVersion == schemaVersion,
            header.latestSnapshot == report.old.name
        else { return nil }
        var kept: [Range<Int>] = []
        var cursor = 1
        for _ in 0..<header.reports {
            guard let night = decoded(ReportHeader.self, at: cursor), night.joiners >= 0, night.leavers >= 0,
                night.changed >= 0, case let last = cursor + night.joiners + night.leavers + night.changed,
                last < lines.count
            else { return nil }
            if retained.contains(night.old.name) { kept.append(lines[cursor].lowerBound..<lines[last].upperBound) }
            cursor = last + 1
        }
        guard cursor == lines.count else { return nil }
        let recorded = !report.diff.isEmpty && retained.contains(report.old.name)
        let encoder = Snapshot.canonicalEncoder()
        var out: [UInt8] = []
        do {
            let newHeader = Header(
                latestSnapshot: report.new.name, reports: kept.count + (recorded ? 1 : 0), schemaVersion: schemaVersion)
            out.append(contentsOf: try encoder.encode(newHeader))
            out.append(UInt8(ascii: "\n"))
            file.withUnsafeBytes { bytes in
                for night in kept {
                    out.append(contentsOf: bytes[night])
                    out.append(UInt8(ascii: "\n"))
                }
            }
            if recorded { try append(report, to: &out, encoder) }
        } catch {
            return nil
        }
        return Data(out)
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
        var history = ChangeHistory(latestSnapshot: header.latestSnapshot)
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
            let people = try read(
                data, take(reportHeader.joiners + reportHeader.leavers), decoder, path,
                fast: SnapshotUserCodec.readUsers)
            let changes = try read(data, take(reportHeader.changed), decoder, path, fast: SnapshotUserCodec.readChanges)
            let diff = DirectoryDiff(
                joiners: Array(people.prefix(reportHeader.joiners)),
                leavers: Array(people.dropFirst(reportHeader.joiners)),
                changed: changes)
            history.entries.append(DiffReport(old: reportHeader.old, new: reportHeader.new, diff: diff))
        }
        guard cursor == lines.count else {
            throw .corrupt(path: path, reason: "\(lines.count - cursor) lines after the last report")
        }
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
