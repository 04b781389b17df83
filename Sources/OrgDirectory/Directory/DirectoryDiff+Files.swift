import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Comparing two snapshot files without reading everyone in them.
///
/// Canonical files write each person as one line and sort people by id, so a person whose line is byte for byte
/// the same in both files is unchanged: the comparison is a merge walk over lines with `memcmp`, and only the
/// lines that differ are decoded. With a few percent changed, that skips nearly all the decoding, which is most
/// of what `orgdir diff` would otherwise spend its time on. Files not in the canonical layout are read in full.
extension DiffReport {
    /// Compares two snapshot files; the sides are named after the files.
    public static func between(oldFile: URL, newFile: URL) throws(SnapshotError) -> DiffReport {
        let oldData = try SnapshotStore.read(oldFile)
        let newData = try SnapshotStore.read(newFile)
        if let report = try compareCanonical(oldData, oldFile, newData, newFile) { return report }
        return DiffReport(
            old: try Snapshot.decode(oldData, path: oldFile.path), named: oldFile.lastPathComponent,
            new: try Snapshot.decode(newData, path: newFile.path), named: newFile.lastPathComponent)
    }

    /// The line-level comparison, or nil when either file is not laid out canonically (or is out of order).
    private static func compareCanonical(_ oldData: Data, _ oldURL: URL, _ newData: Data, _ newURL: URL)
        throws(SnapshotError) -> DiffReport?
    {
        guard let oldFile = try CanonicalLines(oldData, path: oldURL.path),
            let newFile = try CanonicalLines(newData, path: newURL.path)
        else { return nil }
        let outcome: Result<DirectoryDiff?, SnapshotError> = oldData.withUnsafeBytes { oldBytes in
            newData.withUnsafeBytes { newBytes in
                do throws(SnapshotError) {
                    return .success(try mergeWalk(oldFile, oldBytes, newFile, newBytes))
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let diff = try outcome.get() else { return nil }
        return DiffReport(
            old: Side(name: oldURL.lastPathComponent, metadata: oldFile.metadata),
            new: Side(name: newURL.lastPathComponent, metadata: newFile.metadata), diff: diff)
    }

    /// The merge walk; nil if the decoded people show a file is not sorted by id (then the caller reads it all).
    private static func mergeWalk(
        _ oldFile: CanonicalLines, _ oldBytes: UnsafeRawBufferPointer, _ newFile: CanonicalLines,
        _ newBytes: UnsafeRawBufferPointer
    ) throws(SnapshotError) -> DirectoryDiff? {
        var diff = DirectoryDiff()
        var oldIndex = 0
        var newIndex = 0
        var pendingOld: User?
        var pendingNew: User?
        var lastOldID: String?
        var lastNewID: String?
        let oldLines = oldFile.lines
        let newLines = newFile.lines
        while oldIndex < oldLines.count, newIndex < newLines.count {
            let oldLine = oldLines[oldIndex]
            let newLine = newLines[newIndex]
            if pendingOld == nil, pendingNew == nil, same(oldBytes, oldLine, newBytes, newLine) {
                oldIndex += 1
                newIndex += 1
                continue
            }
            let before: User
            if let pendingOld { before = pendingOld } else { before = try oldFile.user(at: oldIndex, in: oldBytes) }
            let after: User
            if let pendingNew { after = pendingNew } else { after = try newFile.user(at: newIndex, in: newBytes) }
            pendingOld = nil
            pendingNew = nil
            if before.id == after.id {
                if before != after, let change = PersonChange.between(before, after) { diff.changed.append(change) }
                oldIndex += 1
                newIndex += 1
            } else if User.canonicallyPrecedes(before, after) {
                diff.leavers.append(before)
                oldIndex += 1
                pendingNew = after
            } else {
                diff.joiners.append(after)
                newIndex += 1
                pendingOld = before
            }
            // Decoded people must come in id order in each file, or the walk's assumption is wrong.
            if let last = lastOldID, !User.idPrecedes(last, before.id), last != before.id { return nil }
            if let last = lastNewID, !User.idPrecedes(last, after.id), last != after.id { return nil }
            lastOldID = before.id
            lastNewID = after.id
        }
        while oldIndex < oldLines.count {
            if let user = pendingOld {
                diff.leavers.append(user)
                pendingOld = nil
            } else {
                diff.leavers.append(try oldFile.user(at: oldIndex, in: oldBytes))
            }
            oldIndex += 1
        }
        while newIndex < newLines.count {
            if let user = pendingNew {
                diff.joiners.append(user)
                pendingNew = nil
            } else {
                diff.joiners.append(try newFile.user(at: newIndex, in: newBytes))
            }
            newIndex += 1
        }
        return diff
    }

    /// Whether two lines hold the same bytes.
    private static func same(
        _ left: UnsafeRawBufferPointer, _ leftRange: Range<Int>, _ right: UnsafeRawBufferPointer,
        _ rightRange: Range<Int>
    ) -> Bool {
        guard leftRange.count == rightRange.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return leftRange.isEmpty }
        return memcmp(leftBase + leftRange.lowerBound, rightBase + rightRange.lowerBound, leftRange.count) == 0
    }
}

/// A canonical snapshot file seen as its metadata and the byte range of each person's line.
private struct CanonicalLines {
    var metadata: SnapshotMetadata
    /// Each person's JSON object, without the `,` and line break after it.
    var lines: [Range<Int>]
    var path: String

    /// Nil when the data is not in the canonical layout; throws for a newer schema or a damaged file.
    init?(_ data: Data, path: String) throws(SnapshotError) {
        let parts = data.withUnsafeBytes { Snapshot.canonicalParts($0) }
        guard let parts else { return nil }
        metadata = try Snapshot.decodeMetadata(data.subdata(in: parts.metadata), path: path)
        lines = data.withUnsafeBytes { Self.lineRanges($0, parts.body) }
        self.path = path
        guard lines.count == metadata.counts.people else {
            throw .corrupt(
                path: path, reason: "it holds \(lines.count) people but its metadata counts \(metadata.counts.people)")
        }
    }

    /// Splits the body at line breaks with `memchr`, dropping the separators.
    private static func lineRanges(_ bytes: UnsafeRawBufferPointer, _ body: Range<Int>) -> [Range<Int>] {
        guard let base = bytes.baseAddress, !body.isEmpty else { return [] }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(body.count / 400)
        var start = body.lowerBound
        while start < body.upperBound {
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), body.upperBound - start)
            let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? body.upperBound
            var last = end
            if last > start, bytes[last - 1] == UInt8(ascii: ",") { last -= 1 }
            if last > start { ranges.append(start..<last) }
            start = end + 1
        }
        return ranges
    }

    /// Decodes one person's line (fast reader, JSONDecoder when it gives up).
    func user(at index: Int, in bytes: UnsafeRawBufferPointer) throws(SnapshotError) -> User {
        let range = lines[index]
        if let users = try? SnapshotUserCodec.readUsers(bytes, range: range), users.count == 1 {
            return users[0]
        }
        do {
            return try Snapshot.canonicalDecoder().decode(User.self, from: Data(bytes[range]))
        } catch {
            throw .corrupt(path: path, reason: "person \(index + 1): " + Snapshot.describe(error))
        }
    }
}
