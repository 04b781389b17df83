import Crypto

#if canImport(CCryptoBoringSSL)
    import CCryptoBoringSSL
#endif

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
    ///
    /// Where swift-crypto's BoringSSL is built (on Linux for `Crypto`, and wherever `_CryptoExtras` is used, as here),
    /// through BoringSSL's one-shot `SHA256` itself: the same digest, with none of the `SHA256` value's per-hash work
    /// around it (a context object allocated and freed, the context copied and cleared to finalize), which was more
    /// than half of each of the two hashes a nightly takes of each of a hundred thousand people: 24, 28, 24 samples
    /// under this initializer, 11 of them freeing the context, against 15, 16, 19 this way, and the export row keys
    /// 34, 43, 36 against 27, 29, 30 (`Benchmarks/profile-ab.sh OLD NEW 3`). Without the module, the `SHA256` value;
    /// a test pins the two to the same digest.
    init(hashing bytes: [UInt8]) {
        #if canImport(CCryptoBoringSSL)
            // The digest on the stack, as the bytes BoringSSL writes.
            self = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
                bytes.withUnsafeBufferPointer { input in
                    _ = CCryptoBoringSSL_SHA256(input.baseAddress, input.count, digest.baseAddress)
                }
                return RenderFingerprint(digest: UnsafeRawBufferPointer(digest))
            }
        #else
            var hasher = SHA256()
            bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            self = hasher.finalize().withUnsafeBytes { RenderFingerprint(digest: $0) }
        #endif
    }

    /// The fingerprint of a SHA-256 `digest`: its first 16 bytes read as two big-endian words.
    private init(digest: UnsafeRawBufferPointer) {
        self.init(
            high: UInt64(bigEndian: digest.loadUnaligned(as: UInt64.self)),
            low: UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
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
    /// Read from a buffer of bytes, not through a generic collection's iterator: that was a fifth of reading the two
    /// fingerprint files of a 100,000-person nightly run.
    init?(hexBytes: UnsafeRawBufferPointer) {
        guard hexBytes.count == 32, let base = hexBytes.baseAddress else { return nil }
        // Each byte's digit from a table, anything but a hex digit marked in the high bits (checked once at the
        // end): a branch per byte was as slow as the generic iterator.
        var invalid: UInt8 = 0
        let (high, low) = Self.hexDigits.withUnsafeBufferPointer { digits in
            func word(from start: Int) -> UInt64 {
                var value: UInt64 = 0
                for offset in start..<(start + 16) {
                    let digit = digits[Int(base.load(fromByteOffset: offset, as: UInt8.self))]
                    invalid |= digit
                    value = value << 4 | UInt64(digit & 0x0F)
                }
                return value
            }
            return (word(from: 0), word(from: 16))
        }
        guard invalid & 0xF0 == 0 else { return nil }
        self.init(high: high, low: low)
    }

    /// The value of each byte as a hex digit (either case), 0xF0 for any other byte.
    private static let hexDigits: [UInt8] = (0...255).map { byte in
        switch byte {
        case 0x30...0x39: UInt8(byte - 0x30)
        case 0x61...0x66: UInt8(byte - 0x61 + 10)
        case 0x41...0x46: UInt8(byte - 0x41 + 10)
        default: 0xF0
        }
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
