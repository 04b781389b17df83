import Foundation

/// The access tokens the sandbox issued, with their expiry and how often each was used, so Graph
/// requests can be authenticated and tokens made to expire on schedule.
struct TokenRegistry: Sendable {
    /// One issued token.
    struct Entry: Sendable {
        var expiresAt: Date
        var uses: Int
        var revoked: Bool
    }

    /// Why a bearer token was refused, in Graph's words.
    enum Rejection: Sendable, Equatable {
        case empty
        case malformed
        case expired

        var message: String {
            switch self {
            case .empty: "Access token is empty."
            case .malformed: "CompactToken parsing failed with error code: 80049217"
            case .expired: "Access token has expired or is not yet valid."
            }
        }
    }

    private var entries: [String: Entry] = [:]

    /// Issues an opaque random token valid for `lifetime` seconds.
    mutating func issue(lifetime: Int, now: Date) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8]()
        for _ in 0..<48 {
            bytes.append(UInt8.random(in: .min ... .max, using: &generator))
        }
        let token = Base64URL.encode(Data(bytes))
        entries[token] = Entry(expiresAt: now.addingTimeInterval(TimeInterval(lifetime)), uses: 0, revoked: false)
        return token
    }

    /// Checks an `Authorization` header value and counts the use; `maxUses` makes tokens expire after
    /// that many Graph requests.
    mutating func authenticate(authorization: String?, now: Date, maxUses: Int?) -> Rejection? {
        guard let authorization, !authorization.trimmingCharacters(in: .whitespaces).isEmpty else { return .empty }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else {
            return parts.count < 2 ? .empty : .malformed
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard var entry = entries[token] else { return .malformed }
        if entry.revoked || entry.expiresAt <= now { return .expired }
        if let maxUses, entry.uses >= maxUses {
            entry.revoked = true
            entries[token] = entry
            return .expired
        }
        entry.uses += 1
        entries[token] = entry
        return nil
    }

    /// Makes every token issued so far expired.
    mutating func expireAll() {
        for key in entries.keys {
            entries[key]?.revoked = true
        }
    }

    /// How many tokens were issued.
    var issuedCount: Int { entries.count }
}
