import Foundation

/// The display records of the published search base (`search/r/<n>.js`), read for a night that makes a new base:
/// the record of a person located in the old base (`SearchOverlayPlan.locate`) is copied from there, byte for byte,
/// instead of made again.
///
/// Why it is the same record: a record shows the person's record after hiding and their slug, and a person is located
/// only when the base entry's key is their record's digest and their slug was not lengthened then or now (an ordinary
/// slug follows from the record alone). The published base is the one the located numbers are in (same id), so its
/// files were written by the run that kept those tokens, with the same orgdir build and hidden fields (the tokens'
/// context).
///
/// Why copy: an overlay night makes no records, so the records a run kept for the next (`search-records.bin`, as the
/// list rows are kept) were gone by the night that makes a new base, which then made all 100,000 records again, some
/// 80 of its samples (`Benchmarks/README.md`, "a night that makes a new search base copies its records"). The base
/// holds them by base number, which is where a run locates everyone, so nothing else is kept for them. A chunk that
/// cannot be read or does not hold exactly its records, each an array of seven strings, is left alone: its people's
/// records are made.
struct SearchBaseRecords: Sendable {
    /// The published base (its folder, size and chunk size).
    let base: PublishedSearchBase
    /// Each display position's base number (`SearchBaseRows.overlay` for people not located in the base).
    let numbers: [UInt32]

    /// Records of the base `published` for people at `rows`; nil unless `rows` are in that base.
    init?(published: PublishedSearchBase, rows: SearchBaseRows) {
        guard rows.base == published.id, published.recordChunk > 0 else { return nil }
        (base, numbers) = (published, rows.numbers)
    }

    /// A walk through the base's chunks, one held at a time: people in display order are in base order, save the
    /// overlay's, so each chunk is read once.
    struct Reader {
        let records: SearchBaseRecords
        /// The chunk held, its bytes, and each record's bytes in them (nil when the chunk is unusable). Read, not
        /// mapped (`MappedFile`): unmapping 3,125 small files was some 50 samples of a new-base night, on both cores
        /// (each `munmap` flushes the other core's address translations).
        private var chunk = -1
        private var bytes = Data()
        private var ranges: [Range<Int>]?
        /// Records appended from the base.
        private(set) var copied = 0

        init(_ records: SearchBaseRecords) {
            self.records = records
        }

        /// Appends the base's record of the person at display `position` to `file`; false when the base has none
        /// for them (not located, or their chunk unusable), and nothing is appended.
        mutating func append(position: Int, to file: inout [UInt8]) -> Bool {
            guard position < records.numbers.count else { return false }
            let number = Int(records.numbers[position])
            let base = records.base
            guard number != Int(SearchBaseRows.overlay), number < base.people else { return false }
            let wanted = number / base.recordChunk
            if wanted != chunk { load(wanted) }
            guard let ranges else { return false }
            let range = ranges[number - wanted * base.recordChunk]
            bytes.withUnsafeBytes { file.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[range])) }
            copied += 1
            return true
        }

        private mutating func load(_ number: Int) {
            let base = records.base
            chunk = number
            bytes = FileManager.default.contents(atPath: "\(base.folder)/search/r/\(number).js") ?? Data()
            let expected = min(base.recordChunk, base.people - number * base.recordChunk)
            ranges = bytes.withUnsafeBytes { SearchBaseRecords.records(in: $0, chunk: number, expected: expected) }
        }
    }

    /// Where each record of record chunk `chunk` is in its file's `bytes` (`orgdirShard("r","<chunk>",[…]);`, as
    /// `SearchIndexBuilder.recordChunk` writes it): nil unless the file holds exactly `expected` records, each an
    /// array of seven JSON strings, and nothing else.
    static func records(in bytes: UnsafeRawBufferPointer, chunk: Int, expected: Int) -> [Range<Int>]? {
        let opening = Array("orgdirShard(\"r\",\"\(chunk)\",[".utf8)
        let closing: [UInt8] = [0x5D, 0x29, 0x3B, 0x0A]  // ]);\n
        guard bytes.count >= opening.count + closing.count, bytes.starts(with: opening),
            bytes.suffix(closing.count).elementsEqual(closing)
        else { return nil }
        let end = bytes.count - closing.count
        var index = opening.count
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(expected)
        while index < end {
            if !ranges.isEmpty {
                guard bytes[index] == 0x2C else { return nil }
                index += 1
            }
            guard let record = Self.record(in: bytes, from: index, end: end) else { return nil }
            ranges.append(index..<record)
            index = record
        }
        return ranges.count == expected ? ranges : nil
    }

    /// Where the record starting at `start` ends: `[` seven strings `]`, the strings as `SiteEscaping.appendJSONString`
    /// writes them (no control characters, only JSON's escapes); nil when it is anything else.
    private static func record(in bytes: UnsafeRawBufferPointer, from start: Int, end: Int) -> Int? {
        var index = start
        guard index < end, bytes[index] == 0x5B else { return nil }
        index += 1
        for field in 0..<7 {
            if field > 0 {
                guard index < end, bytes[index] == 0x2C else { return nil }
                index += 1
            }
            guard index < end, bytes[index] == 0x22 else { return nil }
            index += 1
            while true {
                guard index < end else { return nil }
                let byte = bytes[index]
                if byte == 0x22 { break }
                if byte < 0x20 { return nil }
                if byte == 0x5C {
                    guard index + 1 < end else { return nil }
                    switch bytes[index + 1] {
                    case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: index += 2
                    case 0x75:
                        guard index + 6 <= end,
                            (index + 2..<index + 6).allSatisfy({ isHexDigit(bytes[$0]) })
                        else { return nil }
                        index += 6
                    default: return nil
                    }
                    continue
                }
                index += 1
            }
            index += 1
        }
        guard index < end, bytes[index] == 0x5D else { return nil }
        return index + 1
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
