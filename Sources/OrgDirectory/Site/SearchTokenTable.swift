/// Search tokens by number, so a person's tokens can be kept as 4 bytes each from the moment they arrive.
///
/// A first build works out everyone's search tokens while it fetches (see `EarlyPreparation`); held as strings
/// they cost about 500 bytes a person, which took a 100,000-person build past its memory budget. Numbered, a
/// person's list is an array of `UInt32` with the match class in the low two bits.
struct SearchTokenTable: Sendable, Equatable {
    /// Token text by number.
    private(set) var strings: [String] = []
    private var numbers: [String: UInt32] = [:]

    /// Tokens numbered so far.
    var count: Int { strings.count }

    /// The number of `token`, given one the first time it is seen.
    mutating func number(_ token: String) -> UInt32 {
        if let known = numbers[token] { return known }
        let number = UInt32(strings.count)
        strings.append(token)
        numbers[token] = number
        return number
    }

    /// The token number and match class of a packed entry.
    static func unpack(_ packed: UInt32) -> (number: Int, matchClass: Int) {
        (Int(packed >> 2), Int(packed & 3))
    }
}
