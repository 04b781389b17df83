/// Many lists of small numbers laid out one after the other in one buffer, each list's length counted first: the
/// search index's token postings (`TokenPostings`) and phone trigram lists (`PhoneTrigramLists`).
///
/// Why: grown as an array each, a value at a time, the lists of a 100,000-person directory (some 450,000 token lists,
/// 1,000 phone lists, a few million values) were most of making their shards: every array grew by copies, and each
/// was a place of its own to reach. Here `walk` is called twice, once to count each list's length and once to put
/// every value in its place, and the lists are slices of one buffer. Counts and values are 32-bit (half the memory of
/// `Int`): more than `Int32.max` values in all (a few million at 100,000 people, so a directory of some tens of
/// millions), or a value beyond it, stops the run with a message naming the limit (`limitPassed`), not a bare trap.
struct CountedLists: Sendable {
    /// Where each list starts in `values`, then where the last one ends.
    private let starts: [Int32]
    private let values: [Int32]

    /// `count` lists filled by `walk`, which hands each value to the function it is given with the list it goes in,
    /// in the order the values go in each list. Called twice, it must hand over the same values both times. Values
    /// are positions, 0 to `Int32.max`.
    init(count: Int, walk: (_ add: (_ list: Int, _ value: Int) -> Void) -> Void) {
        var starts = [Int32](repeating: 0, count: count + 1)
        // Lengths wrap rather than trap; the total, counted wide, is checked once after: no list is longer than all of
        // them, so within `Int32.max` in all, no length wrapped and no start below overflows.
        var total = 0
        walk { list, _ in
            starts[list + 1] &+= 1
            total += 1
        }
        guard total <= Int(Int32.max) else { Self.limitPassed("\(total) values in all") }
        for slot in starts.indices.dropFirst() { starts[slot] &+= starts[slot - 1] }
        // Filled in order, each list's start moves to its end (the next one's start); one shift puts them back, with
        // no second array of cursors.
        //
        // Cleared first, though the second walk writes every slot: left uncleared (`unsafeUninitializedCapacity`), the
        // buffer's fresh pages were faulted in by the scattered writes instead, and the token and phone lists took as
        // long or longer (`Benchmarks/profile-ab.sh OLD NEW 2`: `CountedLists.init` 6, 8 -> 12, 22 samples).
        var values = [Int32](repeating: 0, count: total)
        // Where each list must end, to check the second walk against the first once it is done.
        let ends = starts.dropFirst()
        values.withUnsafeMutableBufferPointer { values in
            walk { list, value in
                // One comparison: a negative value, seen as unsigned, is beyond the limit too.
                guard UInt(bitPattern: value) <= UInt(Int32.max) else { Self.limitPassed("the value \(value)") }
                // A walk handing more values than it counted would write past the buffer: stopped before it does.
                let slot = Int(starts[list])
                guard slot < total else { Self.walksDiffer() }
                values[slot] = Int32(truncatingIfNeeded: value)
                starts[list] &+= 1
            }
        }
        // Any list handed more or fewer values than counted ends elsewhere, even when the total is the same (a value
        // moved from one list to the next wrote over that list's first slot).
        guard starts.dropLast().elementsEqual(ends) else { Self.walksDiffer() }
        for slot in starts.indices.dropFirst().reversed() { starts[slot] = starts[slot - 1] }
        starts[0] = 0
        self.starts = starts
        self.values = values
    }

    /// Stops the run, saying which 32-bit limit `what` passed.
    ///
    /// Why `fatalError`, not `precondition`: a release build drops a precondition's message and traps bare, and a
    /// directory this large is a limit of the search index a person running `orgdir` should be able to read.
    private static func limitPassed(_ what: String) -> Never {
        fatalError(
            "The search index's lists hold at most \(Int32.max) values in all, each from 0 to \(Int32.max) "
                + "(32-bit, to halve their memory): \(what) passed that.")
    }

    /// Stops the run: the two walks handed lists other numbers of values (a bug in the caller), which left slots
    /// unwritten or wrote over another list's.
    private static func walksDiffer() -> Never {
        fatalError("CountedLists: the second walk handed over other values than the first")
    }

    /// The values of the lists `lists`, one list after the other.
    func values(in lists: Range<Int>) -> ArraySlice<Int32> {
        values[Int(starts[lists.lowerBound])..<Int(starts[lists.upperBound])]
    }

    /// How many values the lists `lists` hold, from where they start and end (no slice of the values made).
    func count(in lists: Range<Int>) -> Int {
        Int(starts[lists.upperBound]) - Int(starts[lists.lowerBound])
    }

    /// The values of list `list`.
    func values(of list: Int) -> ArraySlice<Int32> {
        values(in: list..<(list + 1))
    }
}
