/// Collects bytes and hands them on in pieces of about `pieceSize`, so a large file (an export, a state cache) is
/// never whole in memory: the writer appends to `bytes` and calls `flushIfFull()` after each entry, then `flush()`
/// at the end. One piece's buffer is reused all the way through.
///
/// Why it matters beyond the peak: a buffer of a file's whole size is fresh memory, and on these machines each fresh
/// 2 MiB page costs about a millisecond to fault in and clear (`Benchmarks/README.md`, "Fresh memory is the largest
/// single cost").
struct PieceBuffer<Failure: Error> {
    var bytes: [UInt8] = []
    let pieceSize: Int
    let emit: ([UInt8]) throws(Failure) -> Void
    /// Bytes handed on so far.
    private(set) var handedOn = 0

    /// Where the next byte goes in the whole file.
    var position: Int { handedOn + bytes.count }

    init(pieceSize: Int, emit: @escaping ([UInt8]) throws(Failure) -> Void) {
        self.pieceSize = pieceSize
        self.emit = emit
        bytes.reserveCapacity(pieceSize + 4_096)
    }

    mutating func append(_ text: String) throws(Failure) {
        bytes.append(contentsOf: text.utf8)
        try flushIfFull()
    }

    /// Appends `run`, handing on each piece as it fills: a long run (a stretch of a file copied whole) never grows
    /// the buffer past a piece.
    mutating func append(_ run: UnsafeRawBufferPointer) throws(Failure) {
        var rest = run[...]
        while !rest.isEmpty {
            let part = rest.prefix(Swift.max(pieceSize - bytes.count, 1))
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: part))
            rest = rest.dropFirst(part.count)
            try flushIfFull()
        }
    }

    /// Hands the bytes on once they reach a piece; called after each entry.
    mutating func flushIfFull() throws(Failure) {
        if bytes.count >= pieceSize { try flush() }
    }

    /// Hands on whatever is gathered.
    mutating func flush() throws(Failure) {
        guard !bytes.isEmpty else { return }
        try emit(bytes)
        handedOn += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }
}
