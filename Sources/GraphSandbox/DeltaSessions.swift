import Foundation

/// The server side of delta tokens. Tokens handed out are random and opaque; what they stand for stays
/// here, so forgetting them (`expireAll`) makes every saved deltaLink fail the way an expired one does.
struct DeltaSessions: Sendable {
    /// What a `$deltatoken` stands for: changes after `sequence`, for this selection.
    struct Cursor: Sendable, Equatable {
        var sequence: Int
        var select: [String]?
        var tracksManager: Bool
        var ids: Set<String>?
    }

    /// One user in a round still to be sent.
    enum Item: Sendable, Equatable {
        /// Send the user's current state; `managerDelta` adds `manager@delta` (with the former manager
        /// when the link was removed). `changed`: the properties that changed (nil: a new user), for servers
        /// that send only those.
        case upsert(id: String, managerDelta: Bool, formerManagerId: String?, changed: Set<String>?)
        case removed(id: String)
    }

    /// What a `$skiptoken` stands for: the rest of a round and where its deltaLink will point.
    struct Round: Sendable {
        var items: ArraySlice<Item>
        var cursor: Cursor
    }

    private var cursors: [String: Cursor] = [:]
    private var rounds: [String: Round] = [:]

    /// Hands out a deltaLink token for `cursor`.
    mutating func issue(_ cursor: Cursor) -> String {
        let token = Self.newToken()
        cursors[token] = cursor
        return token
    }

    /// Hands out a nextLink token for the rest of a round.
    mutating func issue(_ round: Round) -> String {
        let token = Self.newToken()
        rounds[token] = round
        return token
    }

    func cursor(_ token: String) -> Cursor? { cursors[token] }

    /// A round's remainder; each skip token is good for one page, but replaying it is harmless.
    func round(_ token: String) -> Round? { rounds[token] }

    /// Forgets every token, as if they had all expired.
    mutating func expireAll() {
        cursors.removeAll()
        rounds.removeAll()
    }

    /// 24 random bytes, base64url: nothing a client could read or forge.
    private static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }
}
