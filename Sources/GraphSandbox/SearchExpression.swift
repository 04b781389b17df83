/// A `$search` value on users: quoted `"property:text"` clauses joined by `AND` / `OR` (AND binds tighter).
/// `displayName` matches by tokens (words split on spaces, symbols, digits and lower-to-upper case changes,
/// each search word a prefix of some token); other properties match like `startsWith`, as Graph documents.
struct SearchExpression: Sendable, Equatable {
    /// One `"property:text"` clause.
    struct Clause: Sendable, Equatable {
        var property: String
        var text: String
    }

    /// Why a `$search` value could not be read.
    struct SyntaxError: Error, Sendable {
        var message: String
    }

    /// OR of ANDs of clauses.
    var alternatives: [[Clause]]

    /// Reads `"a:b" OR "c:d" AND "e:f"`; quotes are required around each clause, as Graph requires.
    static func parse(_ text: String) throws(SyntaxError) -> SearchExpression {
        var alternatives: [[Clause]] = [[]]
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var expectClause = true
        while !rest.isEmpty {
            if expectClause {
                guard rest.first == "\"" else {
                    throw SyntaxError(message: "a quoted \"property:value\" clause is expected")
                }
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else {
                    throw SyntaxError(message: "a closing quote is missing")
                }
                let body = rest[..<close]
                rest = rest[rest.index(after: close)...].drop { $0 == " " }
                guard let colon = body.firstIndex(of: ":") else {
                    throw SyntaxError(message: "clause \"\(body)\" must have the form \"property:value\"")
                }
                let name = String(body[..<colon]).trimmingCharacters(in: .whitespaces)
                guard let property = UserProperty.canonicalName(name) else {
                    throw SyntaxError(message: "unknown property '\(name)'")
                }
                let value = String(body[body.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                alternatives[alternatives.count - 1].append(Clause(property: property, text: value))
                expectClause = false
            } else {
                let word = rest.prefix { $0 != " " }
                rest = rest.dropFirst(word.count).drop { $0 == " " }
                switch word.uppercased() {
                case "AND": break
                case "OR": alternatives.append([])
                default: throw SyntaxError(message: "AND or OR expected, found '\(word)'")
                }
                expectClause = true
            }
        }
        if expectClause { throw SyntaxError(message: "a clause is expected after the last operator") }
        return SearchExpression(alternatives: alternatives)
    }

    /// Whether a user matches.
    func matches(_ user: SandboxUser) -> Bool {
        alternatives.contains { clauses in clauses.allSatisfy { Self.matches($0, user) } }
    }

    /// One clause against one user: tokenized for displayName, prefix for the rest.
    private static func matches(_ clause: Clause, _ user: SandboxUser) -> Bool {
        let values: [String]
        switch user.jsonValue(forProperty: clause.property) {
        case .string(let value): values = [value]
        case .array(let items):
            values = items.compactMap {
                if case .string(let value) = $0 { return value }
                return nil
            }
        default: values = []
        }
        let needle = clause.text.lowercased()
        if clause.property == "displayName" {
            let words = tokens(needle)
            return values.contains { value in
                let haystack = tokens(value).map { $0.lowercased() }
                return words.allSatisfy { word in haystack.contains { $0.hasPrefix(word) } }
            }
        }
        return values.contains { $0.lowercased().hasPrefix(needle) }
    }

    /// Splits on whitespace and symbols, between letters and digits, and at lower-to-upper case changes.
    static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            let isWordCharacter = character.isLetter || character.isNumber
            let boundary =
                !isWordCharacter
                || (previous.map { ($0.isLowercase && character.isUppercase) || ($0.isNumber != character.isNumber) }
                    ?? false)
            if boundary, !current.isEmpty {
                result.append(current)
                current = ""
            }
            if isWordCharacter { current.append(character) }
            previous = isWordCharacter ? character : nil
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
