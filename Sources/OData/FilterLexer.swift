/// Splits filter text into tokens on demand, so the first error reported is the leftmost one.
struct FilterLexer {
    private let characters: [Character]
    private var index = 0

    /// Creates a lexer over `text`; columns count characters (what an editor shows), starting at 1.
    init(_ text: String) {
        self.characters = Array(text)
    }

    /// Reads the next token, skipping whitespace; returns `.end` forever once the text is exhausted.
    mutating func next() throws(FilterSyntaxError) -> FilterToken {
        let beforeWhitespace = index
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        var token = try nextToken()
        token.followsWhitespace = token.column - 1 > beforeWhitespace
        return token
    }

    /// Reads one token starting at `index`, which is not whitespace.
    private mutating func nextToken() throws(FilterSyntaxError) -> FilterToken {
        let start = index
        guard index < characters.count else { return token(.end, from: start) }
        let character = characters[index]
        switch character {
        case "(": index += 1; return token(.leftParenthesis, from: start)
        case ")": index += 1; return token(.rightParenthesis, from: start)
        case ",": index += 1; return token(.comma, from: start)
        case "/": index += 1; return token(.slash, from: start)
        case ":": index += 1; return token(.colon, from: start)
        case "'": return try stringLiteral()
        default: break
        }
        if let length = guidLength(at: index) {
            index += length
            return token(.guid(text(from: start)), from: start)
        }
        if startsDate(at: index) { return try dateTimeLiteral() }
        if character.isASCII, character.isNumber || (character == "-" && isDigit(at: index + 1)) {
            return try numberLiteral()
        }
        if isIdentifierStart(character) {
            while index < characters.count, isIdentifierPart(characters[index]) { index += 1 }
            return token(.identifier(text(from: start)), from: start)
        }
        if character == "\"" {
            throw FilterSyntaxError(
                message: "unexpected character '\"': string literals use single quotes, e.g. 'Sales'",
                column: start + 1)
        }
        throw FilterSyntaxError(message: "unexpected character '\(character)'", column: start + 1)
    }

    /// Reads `'...'` with `''` standing for one quote.
    private mutating func stringLiteral() throws(FilterSyntaxError) -> FilterToken {
        let start = index
        index += 1
        var value = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            guard character == "'" else {
                value.append(character)
                continue
            }
            if index < characters.count, characters[index] == "'" {
                value.append("'")
                index += 1
            } else {
                return token(.string(value), from: start)
            }
        }
        throw FilterSyntaxError(
            message: "unterminated string literal: add a closing ' (write '' for a quote inside the text)",
            column: start + 1)
    }

    /// Reads `-?digits[.digits][e[+-]digits]`; a letter glued to it (`12abc`) is an error, not two tokens.
    private mutating func numberLiteral() throws(FilterSyntaxError) -> FilterToken {
        let start = index
        if characters[index] == "-" { index += 1 }
        skipDigits()
        if index < characters.count, characters[index] == ".", isDigit(at: index + 1) {
            index += 1
            skipDigits()
        }
        if index < characters.count, characters[index] == "e" || characters[index] == "E" {
            var exponent = index + 1
            if exponent < characters.count, characters[exponent] == "+" || characters[exponent] == "-" {
                exponent += 1
            }
            if isDigit(at: exponent) {
                index = exponent
                skipDigits()
            }
        }
        if index < characters.count, isIdentifierPart(characters[index]) || characters[index] == "." {
            while index < characters.count, isIdentifierPart(characters[index]) || characters[index] == "." {
                index += 1
            }
            throw FilterSyntaxError(message: "invalid number literal '\(text(from: start))'", column: start + 1)
        }
        let lexeme = text(from: start)
        guard let value = Double(lexeme), value.isFinite else {
            throw FilterSyntaxError(message: "number literal '\(lexeme)' is out of range", column: start + 1)
        }
        return token(.number(value), from: start)
    }

    /// Reads an unquoted DateTimeOffset; anything that starts like a date but is not a full one is an error.
    private mutating func dateTimeLiteral() throws(FilterSyntaxError) -> FilterToken {
        let start = index
        while index < characters.count, isDateTimePart(characters[index]) { index += 1 }
        let lexeme = text(from: start)
        guard DateTimeOffsetParser.instant(lexeme, requiringZone: true) != nil else {
            throw FilterSyntaxError(
                message: "invalid date-time literal '\(lexeme)': expected a date, time and zone, "
                    + "e.g. 2024-01-31T00:00:00Z",
                column: start + 1)
        }
        return token(.dateTimeOffset(lexeme), from: start)
    }

    /// Length of a GUID (8-4-4-4-12 hex digits) starting at `position` and not glued to more name characters.
    private func guidLength(at position: Int) -> Int? {
        let groups = [8, 4, 4, 4, 12]
        var cursor = position
        for (number, length) in groups.enumerated() {
            if number > 0 {
                guard cursor < characters.count, characters[cursor] == "-" else { return nil }
                cursor += 1
            }
            for _ in 0..<length {
                guard cursor < characters.count, characters[cursor].isHexDigit, characters[cursor].isASCII else {
                    return nil
                }
                cursor += 1
            }
        }
        if cursor < characters.count, isIdentifierPart(characters[cursor]) || characters[cursor] == "-" {
            return nil
        }
        return cursor - position
    }

    /// True at `dddd-dd-dd`, the start of a date literal.
    private func startsDate(at position: Int) -> Bool {
        let pattern: [Bool] = [true, true, true, true, false, true, true, false, true, true]
        guard position + pattern.count <= characters.count else { return false }
        for (offset, wantsDigit) in pattern.enumerated() {
            let character = characters[position + offset]
            if wantsDigit ? !isDigit(at: position + offset) : character != "-" { return false }
        }
        return true
    }

    private func isDateTimePart(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || ":.+-".contains(character))
    }

    private func isDigit(at position: Int) -> Bool {
        position < characters.count && characters[position].isASCII && characters[position].isNumber
    }

    private mutating func skipDigits() {
        while isDigit(at: index) { index += 1 }
    }

    private func isIdentifierStart(_ character: Character) -> Bool {
        character.isLetter || character == "_"
    }

    private func isIdentifierPart(_ character: Character) -> Bool {
        character.isLetter || character == "_" || (character.isASCII && character.isNumber)
    }

    private func text(from start: Int) -> String {
        String(characters[start..<index])
    }

    private func token(_ kind: FilterToken.Kind, from start: Int) -> FilterToken {
        FilterToken(kind: kind, column: start + 1, lexeme: text(from: start))
    }
}
