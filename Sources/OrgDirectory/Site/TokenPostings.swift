/// Every search token's postings: for each token, the display positions of the people who have it, one ascending
/// list per match class (`SearchIndexBuilder.MatchClass`).
///
/// Why flat: numbered postings were an array of three arrays per token, some 150,000 tokens at 100,000 people,
/// each list grown one position at a time, then copied into a dictionary by token text and encoded into one more
/// array per token. Here a counting pass sizes every list first and one buffer holds them all, in place; the
/// shards encode each token's lists straight into their file.
struct TokenPostings: Sendable {
    /// Token text by token number.
    let tokens: [String]
    /// Where each list starts in `positions`: the list of token `t` and class `c` is
    /// `positions[starts[3 * t + c] ..< starts[3 * t + c + 1]]`.
    private let starts: [Int]
    private let positions: [Int32]

    static let classes = SearchIndexBuilder.MatchClass.allCases.count

    /// Postings for people's packed token lists (`SearchTokenTable.pack`: token number and match class), given by
    /// display position, numbered in `tokens`.
    init(tokens: [String], packedByPosition lists: [[UInt32]]) {
        var starts = [Int](repeating: 0, count: tokens.count * Self.classes + 1)
        for list in lists {
            for entry in list {
                let (number, matchClass) = SearchTokenTable.unpack(entry)
                starts[number * Self.classes + matchClass + 1] += 1
            }
        }
        for slot in starts.indices.dropFirst() { starts[slot] += starts[slot - 1] }
        var next = starts
        var positions = [Int32](repeating: 0, count: starts.last ?? 0)
        for (position, list) in lists.enumerated() {
            for entry in list {
                let (number, matchClass) = SearchTokenTable.unpack(entry)
                let slot = number * Self.classes + matchClass
                positions[next[slot]] = Int32(truncatingIfNeeded: position)
                next[slot] += 1
            }
        }
        self.tokens = tokens
        self.starts = starts
        self.positions = positions
    }

    /// Postings by token text (`SearchIndexBuilder.postingsByToken`, for directories too large to number).
    init(byText: [String: [[Int]]]) {
        var tokens: [String] = []
        tokens.reserveCapacity(byText.count)
        var starts: [Int] = [0]
        starts.reserveCapacity(byText.count * Self.classes + 1)
        var positions: [Int32] = []
        for (token, lists) in byText {
            tokens.append(token)
            for matchClass in 0..<Self.classes {
                if matchClass < lists.count {
                    positions.append(contentsOf: lists[matchClass].lazy.map { Int32(truncatingIfNeeded: $0) })
                }
                starts.append(positions.count)
            }
        }
        self.tokens = tokens
        self.starts = starts
        self.positions = positions
    }

    /// Whether anyone on the site has token `number` (a token numbered for someone a local rule left out has
    /// no postings).
    func isPosted(_ number: Int) -> Bool {
        starts[number * Self.classes] != starts[(number + 1) * Self.classes]
    }

    /// The positions of token `number` in `matchClass`, ascending.
    func list(_ number: Int, _ matchClass: Int) -> ArraySlice<Int32> {
        let slot = number * Self.classes + matchClass
        return positions[starts[slot]..<starts[slot + 1]]
    }

    /// The postings of every token someone has, by text (tests and comparisons).
    var byToken: [String: [[Int]]] {
        var postings: [String: [[Int]]] = [:]
        for number in tokens.indices where isPosted(number) {
            postings[tokens[number]] = (0..<Self.classes).map { list(number, $0).map(Int.init) }
        }
        return postings
    }

    /// How many bytes `appendEncoded(number, to:)` appends, worked out without writing them (a shard's split
    /// depends on its tokens' sizes).
    func encodedCount(_ number: Int) -> Int {
        var count = 2 + (Self.classes - 1)  // the outer brackets and the commas between the lists
        for matchClass in 0..<Self.classes {
            let list = list(number, matchClass)
            count += 2 + max(0, list.count - 1)
            var previous: Int32 = 0
            for value in list {
                count += DecimalBytes.count(Int(value - previous))
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
            var previous: Int32 = 0
            var first = true
            for value in list(number, matchClass) {
                if !first { bytes.append(0x2C) }
                first = false
                DecimalBytes.append(Int(value - previous), to: &bytes)
                previous = value
            }
            bytes.append(0x5D)
        }
        bytes.append(0x5D)
    }
}
