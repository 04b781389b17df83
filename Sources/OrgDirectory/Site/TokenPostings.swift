/// Every search token's postings: for each token, the display positions of the people who have it, one ascending
/// list per match class (`SearchIndexBuilder.MatchClass`).
///
/// Why flat: numbered postings were an array of three arrays per token, some 150,000 tokens at 100,000 people,
/// each list grown one position at a time, then copied into a dictionary by token text and encoded into one more
/// array per token. Here a counting pass sizes every list first and one buffer holds them all, in place; the
/// shards encode each token's lists straight into their file. (A directory too large to number its tokens indexes
/// them by text, `SearchIndexBuilder.postingsByToken`: those lists are kept as they were made, not copied.)
struct TokenPostings: Sendable {
    /// Token text by token number.
    let tokens: [String]
    private let storage: Storage

    private enum Storage: Sendable {
        /// Token `t`'s list of class `c` is list `3 * t + c` (`CountedLists`, 32-bit: at a million people there are
        /// some 4.5 million lists).
        case flat(CountedLists)
        /// Each token's lists as made by text (copied into one buffer, a million people's would be there twice at
        /// the build's peak).
        case nested([[[Int]]])
    }

    static let classes = SearchIndexBuilder.MatchClass.allCases.count

    /// Postings for people's packed token lists (`SearchTokenTable.pack`: token number and match class), given by
    /// display position, numbered in `tokens`.
    init(tokens: [String], packedByPosition lists: [[UInt32]]) {
        self.tokens = tokens
        storage = .flat(
            CountedLists(count: tokens.count * Self.classes) { add in
                for (position, list) in lists.enumerated() {
                    for entry in list {
                        let (number, matchClass) = SearchTokenTable.unpack(entry)
                        add(number * Self.classes + matchClass, position)
                    }
                }
            })
    }

    /// Postings by token text (`SearchIndexBuilder.postingsByToken`, for directories too large to number), each
    /// with one list per match class.
    init(byText: [String: [[Int]]]) {
        tokens = Array(byText.keys)
        storage = .nested(Array(byText.values))
    }

    /// Whether anyone on the site has token `number` (a token numbered for someone a local rule left out has
    /// no postings).
    func isPosted(_ number: Int) -> Bool {
        switch storage {
        case .flat(let lists): lists.count(in: (number * Self.classes)..<((number + 1) * Self.classes)) > 0
        case .nested(let lists): lists[number].contains { !$0.isEmpty }
        }
    }

    /// How many tokens someone on the site has (`isPosted`).
    var postedCount: Int {
        tokens.indices.reduce(0) { $0 + (isPosted($1) ? 1 : 0) }
    }

    /// Calls `body` with each position of token `number` in `matchClass`, ascending.
    @inline(__always)
    func forEach(_ number: Int, _ matchClass: Int, _ body: (Int) -> Void) {
        switch storage {
        case .flat(let lists):
            for position in lists.values(of: number * Self.classes + matchClass) { body(Int(position)) }
        case .nested(let lists):
            guard matchClass < lists[number].count else { return }
            for position in lists[number][matchClass] { body(position) }
        }
    }

    /// How many bytes `appendEncoded(number, to:)` appends, worked out without writing them (a shard's split
    /// depends on its tokens' sizes).
    func encodedCount(_ number: Int) -> Int {
        var count = 2 + (Self.classes - 1)  // the outer brackets and the commas between the lists
        for matchClass in 0..<Self.classes {
            count += 2  // the list's brackets
            var previous = 0
            var first = true
            forEach(number, matchClass) { value in
                count += DecimalBytes.count(value - previous) + (first ? 0 : 1)
                first = false
                previous = value
            }
        }
        return count
    }

    /// Token `number`'s postings as `[[d,d,…],[…],[…]]`, one list per match class, each delta-encoded (its first
    /// value absolute).
    func appendEncoded(_ number: Int, to bytes: inout [UInt8]) {
        bytes.append(0x5B)
        for matchClass in 0..<Self.classes {
            if matchClass > 0 { bytes.append(0x2C) }
            bytes.append(0x5B)
            var previous = 0
            var first = true
            forEach(number, matchClass) { value in
                if !first { bytes.append(0x2C) }
                first = false
                DecimalBytes.append(value - previous, to: &bytes)
                previous = value
            }
            bytes.append(0x5D)
        }
        bytes.append(0x5D)
    }
}
