/// Every person's render fingerprint from one run, by Graph id, as kept in the state folder between runs.
///
/// It only ever speeds a run up: a file that is missing, unreadable, from another orgdir version or for
/// another output folder is ignored, and everyone is rendered.
public struct RenderFingerprints: Sendable, Equatable {
    /// The published folder these fingerprints describe (absolute, standardized path).
    public let output: String
    private(set) var byID: [String: RenderFingerprint]
    /// The order a render made them in (the site's display order), which `encoded()` keeps; nil when read from a
    /// file (then ids are sorted).
    private var made: [(id: String, fingerprint: RenderFingerprint)]?

    /// The first line of the file: names the format and its version.
    static let header = "orgdir render fingerprints 1"

    init(output: String, byID: [String: RenderFingerprint] = [:]) {
        self.output = output
        self.byID = byID
    }

    /// Fingerprints in the order a render made them (an id twice: the last counts).
    init(output: String, inOrder entries: [(id: String, fingerprint: RenderFingerprint)]) {
        self.output = output
        var byID: [String: RenderFingerprint] = [:]
        byID.reserveCapacity(entries.count)
        for entry in entries { byID[entry.id] = entry.fingerprint }
        self.byID = byID
        made = entries
    }

    public static func == (left: RenderFingerprints, right: RenderFingerprints) -> Bool {
        left.output == right.output && left.byID == right.byID
    }

    /// People with a fingerprint.
    public var count: Int { byID.count }

    func fingerprint(of id: String) -> RenderFingerprint? {
        byID[id]
    }

    /// The file's text: the header, the orgdir version, the output folder, then `<hex> <id>` per line in the
    /// order the render made them, else in id order (either way the same people give the same bytes). Ids that
    /// could break a line are left out: those people are simply rendered next time. Why the render's order:
    /// sorting a hundred thousand ids was most of writing the file, at the end of every run.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(byID.count * 72 + 128)
        out += Array("\(Self.header)\nversion \(OrgDirVersion.current)\noutput \(output)\n".utf8)
        func line(_ id: String, _ fingerprint: RenderFingerprint) {
            fingerprint.appendHex(to: &out)
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: id.utf8)
            out.append(UInt8(ascii: "\n"))
        }
        if let made {
            for entry in made where Self.isStorable(entry.id) { line(entry.id, entry.fingerprint) }
        } else {
            for (id, fingerprint) in Self.inIDOrder(byID) { line(id, fingerprint) }
        }
        return out
    }

    /// Reads `encoded()`'s text; nil when it is not this format, not this orgdir version, or not for `output`.
    public static func decode(_ bytes: [UInt8], output: String) -> RenderFingerprints? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 3,
            String(decoding: lines[0], as: UTF8.self) == header,
            String(decoding: lines[1], as: UTF8.self) == "version \(OrgDirVersion.current)",
            String(decoding: lines[2], as: UTF8.self) == "output \(output)",
            lines.last?.isEmpty == true
        else { return nil }
        var byID: [String: RenderFingerprint] = [:]
        byID.reserveCapacity(lines.count)
        for line in lines.dropFirst(3).dropLast() {
            guard line.count > 33, line[line.startIndex + 32] == UInt8(ascii: " "),
                let fingerprint = RenderFingerprint(hexBytes: line.prefix(32))
            else { return nil }
            byID[String(decoding: line.dropFirst(33), as: UTF8.self)] = fingerprint
        }
        return RenderFingerprints(output: output, byID: byID)
    }

    private static func isStorable(_ id: String) -> Bool {
        !id.isEmpty && !id.utf8.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
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
