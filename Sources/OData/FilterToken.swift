/// One lexical token of filter text, with the column where it starts.
struct FilterToken: Sendable, Equatable {
    /// What kind of token this is, with its decoded value.
    enum Kind: Sendable, Equatable {
        case identifier(String)
        case string(String)
        case number(Double)
        case guid(String)
        case dateTimeOffset(String)
        case leftParenthesis
        case rightParenthesis
        case comma
        case slash
        case colon
        case end
    }

    let kind: Kind
    /// 1-based column of the token's first character.
    let column: Int
    /// The token's source text, for messages.
    let lexeme: String
    /// True when whitespace separates this token from the previous one (paths allow none around `/`).
    var followsWhitespace = false

    /// The identifier's text if this is an identifier.
    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }

    /// True when this is the identifier `keyword`, compared case-insensitively (Graph accepts `AND`, `NOT`).
    func isKeyword(_ keyword: String) -> Bool {
        identifier?.lowercased() == keyword
    }

    /// How the token reads in an error message: `'surname'`, `')'`, or "the end of the filter".
    var quoted: String {
        kind == .end ? "the end of the filter" : "'\(lexeme)'"
    }
}
