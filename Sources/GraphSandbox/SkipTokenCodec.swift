import Foundation

/// Makes and reads the opaque `$skiptoken` of user pages. Like Graph's, it starts with `RFNwdA`
/// (base64 of "DSpt"); inside are the sort position of the last user sent and a fingerprint of the query,
/// sealed with a per-instance key so an edited or foreign token is rejected instead of silently misread.
struct SkipTokenCodec: Sendable {
    /// Where the previous page ended.
    struct Position: Sendable, Equatable {
        var sortValue: String
        var id: String
    }

    private static let header: [UInt8] = Array("DSpt".utf8) + [0x02, 0x00, 0x01, 0x00]
    private let key: UInt64

    init(key: UInt64) {
        self.key = key
    }

    /// Seals a position and query fingerprint into a token.
    func encode(_ position: Position, fingerprint: UInt64) -> String {
        var bytes = Self.header
        bytes += Self.littleEndian(fingerprint)
        let sortBytes = Array(position.sortValue.utf8)
        bytes += [UInt8(truncatingIfNeeded: sortBytes.count), UInt8(truncatingIfNeeded: sortBytes.count >> 8)]
        bytes += sortBytes
        bytes += Array(position.id.utf8)
        bytes += Self.littleEndian(mac(bytes))
        return Base64URL.encode(Data(bytes))
    }

    /// Nil when the token is malformed, tampered with, from another sandbox, or made for another query.
    func decode(_ token: String, fingerprint: UInt64) -> Position? {
        guard let data = Base64URL.decode(token) else { return nil }
        let bytes = [UInt8](data)
        let fixed = Self.header.count + 8 + 2
        guard bytes.count >= fixed + 8, Array(bytes[0..<Self.header.count]) == Self.header else { return nil }
        let body = Array(bytes[0..<(bytes.count - 8)])
        guard Self.readUInt64(bytes, at: bytes.count - 8) == mac(body) else { return nil }
        guard Self.readUInt64(bytes, at: Self.header.count) == fingerprint else { return nil }
        let lengthOffset = Self.header.count + 8
        let sortLength = Int(bytes[lengthOffset]) | Int(bytes[lengthOffset + 1]) << 8
        guard fixed + sortLength <= body.count else { return nil }
        let sortValue = String(decoding: body[fixed..<(fixed + sortLength)], as: UTF8.self)
        let id = String(decoding: body[(fixed + sortLength)...], as: UTF8.self)
        return Position(sortValue: sortValue, id: id)
    }

    /// Keyed FNV-1a: not cryptographic, but enough to notice edits and tokens from other instances.
    private func mac(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in Self.littleEndian(key) + bytes + Self.littleEndian(~key) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return hash
    }

    /// A stable 64-bit hash of query text, binding a token to the query that produced it.
    static func fingerprint(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return hash
    }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func readUInt64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
