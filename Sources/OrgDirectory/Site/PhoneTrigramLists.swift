/// Who holds each phone trigram: for every three digits in a row (a number below 1,000), the positions of the people
/// whose search digits hold them, ascending, each person once.
///
/// Why one buffer (`CountedLists`): the phone shards list some sixteen trigrams a person. Grown as a thousand arrays
/// a person at a time, with each person's trigrams sorted to drop repeats, the lists were about a fifth of making the
/// shards of a 100,000-person directory. A person's repeats are dropped by remembering who last added to each list.
struct PhoneTrigramLists {
    /// Trigrams are `000` to `999`.
    static let trigramCount = 1_000

    private let lists: CountedLists

    /// The lists of the people whose search digits are `digits[ends[index - 1]..<ends[index]]` (from 0 for the
    /// first), spaces between their phones.
    init(digits: UnsafeBufferPointer<UInt8>, ends: [Int]) {
        lists = CountedLists(count: Self.trigramCount) { add in Self.forEachTrigram(in: digits, ends: ends, add) }
    }

    /// The positions of the people holding `trigram`, ascending.
    func people(holding trigram: Int) -> ArraySlice<Int32> {
        lists.values(of: trigram)
    }

    /// Calls `body(trigram, person)` once for each distinct trigram of each person, people in order.
    private static func forEachTrigram(
        in digits: UnsafeBufferPointer<UInt8>, ends: [Int], _ body: (_ trigram: Int, _ person: Int) -> Void
    ) {
        // Who last added to each list: a person's second `555` finds itself there.
        var lastHolder = [Int](repeating: -1, count: trigramCount)
        var start = 0
        for (person, end) in ends.enumerated() {
            var run = 0
            var window = 0
            for offset in start..<end {
                let byte = digits[offset]
                guard byte >= 0x30, byte <= 0x39 else {
                    run = 0
                    continue
                }
                window = (window * 10 + Int(byte - 0x30)) % 1000
                run += 1
                if run >= 3, lastHolder[window] != person {
                    lastHolder[window] = person
                    body(window, person)
                }
            }
            start = end
        }
    }
}
