import Crypto

/// A digest of everything that shapes one person's three files (`people/<slug>.md`, `.html`, `.vcf`).
///
/// Why: a nightly run after 1% of people changed used to render every page only to find most bytes equal to
/// the published ones. When a person's fingerprint equals the one stored by the run that published the site,
/// their files are carried over without rendering. The digest is SHA-256 cut to 128 bits: the fields come from
/// the directory, so a collision must be infeasible to craft, not just unlikely.
struct RenderFingerprint: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    /// The digest of `bytes`: its first 16 bytes read as two big-endian words. Fed as one buffer and read in
    /// place: `SHA256.hash(data:)` walked the array as a collection of regions and the digest byte by byte through
    /// its iterator, more time than the hashing itself for the few hundred bytes of a person's input.
    init(hashing bytes: [UInt8]) {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let (high, low) = hasher.finalize().withUnsafeBytes { digest in
            (
                UInt64(bigEndian: digest.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        self.init(high: high, low: low)
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hex digits, as the state file stores it.
    var hex: String {
        HexDigits.string(high) + HexDigits.string(low)
    }

    /// `hex`, appended as bytes (the state file holds one per person).
    func appendHex(to bytes: inout [UInt8]) {
        HexDigits.append(high, to: &bytes)
        HexDigits.append(low, to: &bytes)
    }

    /// Reads 32 hex digits; nil for anything else.
    /// Reads 32 hex digits (either case) from bytes: a run reads a hundred thousand of them, and making a
    /// `String` of each to parse it was most of reading the fingerprint file.
    init?(hexBytes: some Collection<UInt8>) {
        guard hexBytes.count == 32 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (offset, byte) in hexBytes.enumerated() {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            if offset < 16 {
                words.0 = words.0 << 4 | UInt64(digit)
            } else {
                words.1 = words.1 << 4 | UInt64(digit)
            }
        }
        self.init(high: words.0, low: words.1)
    }
}

/// The bytes a fingerprint is taken of: each value length-prefixed and each optional tagged, so two different
/// sequences of values can never produce the same bytes ("ab","c" and "a","bc" differ).
struct FingerprintInput {
    /// The start of a state cache's context (what a cache must have been made with to be used): its `format`,
    /// orgdir's version and build, and the fields hidden.
    static func stateCache(_ format: String, hiding hidden: Set<String>) -> FingerprintInput {
        var input = FingerprintInput()
        input.add(format)
        input.add(OrgDirVersion.current)
        input.add(ExecutableIdentity.current)
        input.add(hidden.sorted().joined(separator: "\n"))
        return input
    }

    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1_024)
    }

    mutating func add(_ text: String) {
        // Through the bytes in place: `text.utf8` retained and released the string, for each of some twenty values
        // a person, in every fingerprint and key of a run.
        text.withUTF8Bytes { utf8 in
            add(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func add(_ text: String?) {
        guard let text else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        add(text)
    }

    /// Eight bytes, little-endian, appended at once (one capacity check, not eight).
    mutating func add(_ number: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(number)).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ flag: Bool) {
        bytes.append(flag ? 1 : 0)
    }

    /// Raw bytes that are already self-delimiting (a canonical JSON object), length-prefixed all the same.
    mutating func add(bytes raw: [UInt8]) {
        add(raw.count)
        bytes.append(contentsOf: raw)
    }

    /// Another digest, whole (it has a fixed length).
    mutating func add(_ digest: RenderFingerprint) {
        add(Int(bitPattern: UInt(digest.high)))
        add(Int(bitPattern: UInt(digest.low)))
    }

    /// Starts over for the next person, keeping the buffer.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    var fingerprint: RenderFingerprint { RenderFingerprint(hashing: bytes) }
}
