/// Many lists of small numbers laid out one after the other in one buffer, each list's length counted first: the
/// search index's token postings (`TokenPostings`) and phone trigram lists (`PhoneTrigramLists`).
///
/// Why: grown as an array each, a value at a time, the lists of a 100,000-person directory (some 450,000 token lists,
/// 1,000 phone lists, a few million values) were most of making their shards: every array grew by copies, and each
/// was a place of its own to reach. Here `walk` is called twice, once to count each list's length and once to put
/// every value in its place, and the lists are slices of one buffer. Counts and values are 32-bit: a list of more
/// than 2^31 values (a directory of that many people) stops the run.
struct CountedLists: Sendable {
    /// Where each list starts in `values`, then where the last one ends.
    private let starts: [Int32]
    private let values: [Int32]

    /// `count` lists filled by `walk`, which hands each value to the function it is given with the list it goes in,
    /// in the order the values go in each list. Called twice, it must hand over the same values both times.
    init(count: Int, walk: (_ add: (_ list: Int, _ value: Int) -> Void) -> Void) {
        var starts = [Int32](repeating: 0, count: count + 1)
        walk { list, _ in starts[list + 1] += 1 }
        for slot in starts.indices.dropFirst() { starts[slot] += starts[slot - 1] }
        // Filled in order, each list's start moves to its end (the next one's start); one shift puts them back, with
        // no second array of cursors.
        var values = [Int32](repeating: 0, count: Int(starts[count]))
        values.withUnsafeMutableBufferPointer { values in
            walk { list, value in
                values[Int(starts[list])] = Int32(value)
                starts[list] += 1
            }
        }
        for slot in starts.indices.dropFirst().reversed() { starts[slot] = starts[slot - 1] }
        starts[0] = 0
        self.starts = starts
        self.values = values
    }

    /// The values of the lists `lists`, one list after the other.
    func values(in lists: Range<Int>) -> ArraySlice<Int32> {
        values[Int(starts[lists.lowerBound])..<Int(starts[lists.upperBound])]
    }

    /// The values of list `list`.
    func values(of list: Int) -> ArraySlice<Int32> {
        values(in: list..<(list + 1))
    }
}
