/// A string as a dictionary key by its UTF-8 bytes: hashed and compared as bytes.
///
/// Why: a `String` key hashes and compares a non-ASCII value by its canonical form, normalizing it on every lookup,
/// and the folding cache is asked for every name and department beyond ASCII of every person a run prepares (the
/// change was not measurable in a nightly's wall time, `Benchmarks/README.md`). Two spellings of one text (composed
/// and decomposed) are two keys here, which a cache of what a value works out to can afford: each gets the same
/// result, worked out once.
struct UTF8Key: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
        lhs.text.withUTF8Bytes { left in
            rhs.text.withUTF8Bytes { right in
                ByteOrder.compare(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        text.withUTF8Bytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
