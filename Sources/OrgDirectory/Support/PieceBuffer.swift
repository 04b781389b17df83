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
    /// Where a long run of bytes that already lie somewhere (`append(_:)` of at least `directRunMinimum` bytes) goes
    /// as it is, when the writer takes raw bytes; nil gathers every run into `bytes`. Why: a nightly's people table
    /// copies the entries of unchanged people from the table before, run by run, out of its mapping; gathered into the
    /// buffer first, those 27 MB at 100,000 people were copied twice, on the core that writes the snapshot while the
    /// other prepares everyone (`Benchmarks/profile-ab.sh`, 2026-11-29: the table's write 15 → 7–9 samples).
    private let handOn: ((UnsafeRawBufferPointer) throws(Failure) -> Void)?
    /// Bytes handed on so far.
    private(set) var handedOn = 0

    /// Runs of at least this many bytes go to `handOn` without being gathered: shorter ones would cost a call of the
    /// writer (a system call) each.
    static var directRunMinimum: Int { 4_096 }

    /// Where the next byte goes in the whole file.
    var position: Int { handedOn + bytes.count }

    init(
        pieceSize: Int, emit: @escaping ([UInt8]) throws(Failure) -> Void,
        handingRunsTo handOn: ((UnsafeRawBufferPointer) throws(Failure) -> Void)? = nil
    ) {
        self.pieceSize = pieceSize
        self.emit = emit
        self.handOn = handOn
        bytes.reserveCapacity(pieceSize + 4_096)
    }

    mutating func append(_ text: String) throws(Failure) {
        bytes.append(contentsOf: text.utf8)
        try flushIfFull()
    }

    /// Appends `run`, handing on each piece as it fills: a long run (a stretch of a file copied whole) never grows
    /// the buffer past a piece, and goes on as it is after what is gathered when there is a `handOn`.
    mutating func append(_ run: UnsafeRawBufferPointer) throws(Failure) {
        if let handOn, run.count >= Self.directRunMinimum {
            try flush()
            try handOn(run)
            handedOn += run.count
            return
        }
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

/// The code a file's writer returned (an `errno`), carried out of an encoder writing through a `PieceBuffer` as its
/// error (`PieceBuffer.writing`).
struct PieceWriteFailure: Error {
    let code: Int32
}

extension PieceBuffer where Failure == PieceWriteFailure {
    /// The bytes `encode` appends, handed to `write` (nil, or the error code that stopped it) in pieces of about
    /// `pieceSize`, with long runs it appends handed on as they lie (`handOn`); returns how many bytes `write` took
    /// and the code that stopped it, if any. How a state cache file is written (`StateCacheFile.prepare`).
    static func writing(
        pieceSize: Int, to write: (UnsafeRawBufferPointer) -> Int32?,
        _ encode: (inout PieceBuffer<PieceWriteFailure>) throws(PieceWriteFailure) -> Void
    ) -> (size: Int, failed: Int32?) {
        // The writer outlives nothing here; escaping only lets the buffer hold it while `encode` runs.
        withoutActuallyEscaping(write) { write in
            func hand(_ bytes: UnsafeRawBufferPointer) throws(PieceWriteFailure) {
                if let code = write(bytes) { throw PieceWriteFailure(code: code) }
            }
            var out = PieceBuffer(
                pieceSize: pieceSize,
                emit: { (piece: [UInt8]) throws(PieceWriteFailure) in
                    if let code = piece.withUnsafeBytes(write) { throw PieceWriteFailure(code: code) }
                }, handingRunsTo: hand)
            do throws(PieceWriteFailure) {
                try encode(&out)
                try out.flush()
                return (out.handedOn, nil)
            } catch {
                return (out.handedOn, error.code)
            }
        }
    }
}
