import Dispatch

/// Arrays made in chunks on every core, each chunk initializing its own part of the result's storage.
///
/// Why not one array per chunk, appended to the result: appending copies every element (a retain of each of its
/// fields) and releasing the chunk then releases them all again. For a hundred thousand people of twenty fields
/// that was some forty milliseconds on one core, between two parallel passes.
///
/// Call it outside other parallel work (`BothAtOnce` included): nested in one, GCD runs the chunks one after the
/// other on the calling thread (`ParallelWork` stops a debug build there).
enum ParallelArray {
    /// An array of `count` elements, the chunks `ranges` (which cover `0..<count`) made at the same time:
    /// `fill(chunk, slots)` initializes the slots of `ranges[chunk]` from the first and returns how many it
    /// initialized, and whether its input filled them exactly. Nil when any chunk did not (its input was not what
    /// the caller expected); whatever the chunks initialized is released then.
    static func make<Element>(
        count: Int, ranges: [Range<Int>], onOwnThreads: Bool = false,
        _ fill:
            @Sendable (_ chunk: Int, _ slots: UnsafeMutableBufferPointer<Element>) -> (initialized: Int, exact: Bool)
    ) -> [Element]? {
        guard count > 0 else { return [] }
        let filled = ChunkResults<(initialized: Int, exact: Bool)>(count: ranges.count)
        var complete = false
        let array = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            let storage = Storage(buffer: buffer)
            let chunk: @Sendable (Int) -> Void = { chunk in
                let slots = UnsafeMutableBufferPointer(rebasing: storage.buffer[ranges[chunk]])
                filled.set(chunk, .success(fill(chunk, slots)))
            }
            if onOwnThreads {
                ParallelWork.performOnOwnThreads(iterations: ranges.count, chunk)
            } else {
                ParallelWork.perform(iterations: ranges.count, chunk)
            }
            var results: [(initialized: Int, exact: Bool)] = []
            filled.drain { results.append($0) }
            complete =
                results.count == ranges.count
                && zip(ranges, results).allSatisfy { $1.exact && $1.initialized == $0.count }
            if complete {
                initialized = count
                return
            }
            if let base = buffer.baseAddress {
                for (range, result) in zip(ranges, results) {
                    (base + range.lowerBound).deinitialize(count: min(result.initialized, range.count))
                }
            }
            initialized = 0
        }
        return complete ? array : nil
    }

    /// `count` split into about `chunks` consecutive ranges.
    static func ranges(count: Int, chunks: Int) -> [Range<Int>] {
        let size = max(1, (count + max(1, chunks) - 1) / max(1, chunks))
        return stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
    }

    /// The result's storage, handed to the chunks: each writes only its own range.
    private struct Storage<Element>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Element>
    }
}
