/// Every person's render fingerprint from one run, by Graph id, as kept in the state folder between runs.
///
/// It only ever speeds a run up: a file that is missing, unreadable, from another orgdir version or for
/// another output folder is ignored, and everyone is rendered.
public struct RenderFingerprints: Sendable, Equatable {
    /// The published folder these fingerprints describe (absolute, standardized path).
    public let output: String
    /// By id, for lookups; empty for fingerprints a render made until `indexed()`.
    private(set) var byID: [String: RenderFingerprint]
    /// The fingerprints a render made, chunk by chunk in display order, which `encoded()` keeps; nil when read
    /// from a file (then ids are sorted). Held as the render's chunks and indexed only on demand: at a million
    /// people a flat copy and an index nobody reads were about 70 MB at the end of the build, where the peak is.
    private var made: [[(id: String, fingerprint: RenderFingerprint)]]?

    /// The first line of the file: names the format and its version.
    static let header = "orgdir render fingerprints 1"

    init(output: String, byID: [String: RenderFingerprint] = [:]) {
        self.output = output
        self.byID = byID
    }

    /// Fingerprints in the order a render made them, in its chunks (an id twice: the last counts); look them
    /// up only through `indexed()`.
    init(output: String, inOrder chunks: [[(id: String, fingerprint: RenderFingerprint)]]) {
        self.output = output
        byID = [:]
        made = chunks
    }

    /// These fingerprints with their lookup index built (made by a render, they have none until asked).
    func indexed() -> RenderFingerprints {
        guard let made, byID.isEmpty else { return self }
        var indexed = self
        indexed.byID.reserveCapacity(made.reduce(0) { $0 + $1.count })
        for chunk in made {
            for entry in chunk { indexed.byID[entry.id] = entry.fingerprint }
        }
        return indexed
    }

    public static func == (left: RenderFingerprints, right: RenderFingerprints) -> Bool {
        left.output == right.output && left.indexed().byID == right.indexed().byID
    }

    /// People with a fingerprint.
    public var count: Int { indexed().byID.count }

    /// The fingerprint of the person with `id`; call on `indexed()` fingerprints (a render's own have no index
    /// and answer nil, which only costs rendering).
    func fingerprint(of id: String) -> RenderFingerprint? {
        byID[id]
    }

    /// The file's text: the header, the orgdir version, the output folder, then `<hex> <id>` per line in the
    /// order the render made them, else in id order (either way the same people give the same bytes). Ids that
    /// could break a line are left out: those people are simply rendered next time. Why the render's order:
    /// sorting a hundred thousand ids was most of writing the file, at the end of every run.
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
        var out: [UInt8] = []
        out.reserveCapacity(pieceSize + 256)
        out += Array("\(Self.header)\nversion \(OrgDirVersion.current)\noutput \(output)\n".utf8)
        func line(_ id: String, _ fingerprint: RenderFingerprint) throws(Failure) {
            fingerprint.appendHex(to: &out)
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: id.utf8)
            out.append(UInt8(ascii: "\n"))
            guard out.count >= pieceSize else { return }
            try emit(out)
            out.removeAll(keepingCapacity: true)
        }
        if let made {
            for chunk in made {
                for entry in chunk where Self.isStorable(entry.id) { try line(entry.id, entry.fingerprint) }
            }
        } else {
            for (id, fingerprint) in Self.inIDOrder(byID) { try line(id, fingerprint) }
        }
        if !out.isEmpty { try emit(out) }
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
