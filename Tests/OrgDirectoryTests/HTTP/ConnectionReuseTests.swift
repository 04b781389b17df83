import Testing

@testable import OrgDirectory

@Suite("Keeping plain-HTTP connections")
struct ConnectionReuseTests {
    /// Records `milliseconds` as requests on whatever connection the policy picks, and returns which it picked.
    private func replay(_ reuse: ConnectionReuse, _ milliseconds: [Int]) async -> [Bool] {
        var picked: [Bool] = []
        for value in milliseconds {
            let closed = await reuse.closesNext()
            picked.append(closed)
            await reuse.record(.milliseconds(value), closed: closed)
        }
        return picked
    }

    @Test("five stalls among the last eight try connections of their own; much faster there, every later one too")
    func stallThenClose() async {
        let reuse = ConnectionReuse()
        // Not every response waits for the delayed acknowledgement: here 5 of 7 do.
        let picked = await replay(reuse, [44, 6, 45, 43, 12, 46, 44, 3, 4, 3, 3, 4, 44])
        #expect(picked == Array(repeating: false, count: 7) + Array(repeating: true, count: 6))
    }

    @Test("a server just as slow on connections of its own keeps its connections, and is never tried again")
    func slowServerSettles() async {
        let reuse = ConnectionReuse()
        let picked = await replay(reuse, [44, 45, 43, 46, 44, 45, 44, 46] + Array(repeating: 44, count: 10))
        #expect(picked == Array(repeating: false, count: 5) + [true, true, true] + Array(repeating: false, count: 10))
    }

    @Test(
        "fast pages, slow pages and stalls in under five of eight never leave a kept connection",
        arguments: [
            [5, 3, 8, 4, 6, 5, 7, 3],
            [100, 104, 101, 99, 103, 100, 102],
            [44, 10, 45, 12, 43, 9, 46, 11, 44, 10, 45, 12],
            [44, 120, 45, 130, 5, 43, 150, 9, 46, 200, 8, 44],
        ])
    func noStall(milliseconds: [Int]) async {
        let reuse = ConnectionReuse()
        #expect(await replay(reuse, milliseconds).allSatisfy { !$0 })
    }
}
