import Testing

@testable import OrgDirectory

/// `BinaryRecord.append(contentsOf:to:)` writes a list of numbers the same way whichever path it takes (one block
/// on a little-endian machine, a number at a time elsewhere): four little-endian bytes a number, after what was there.
@Suite("Binary record number lists")
struct BinaryRecordTests {
    static let lists: [[UInt32]] = [
        [],
        [0x0102_0304],
        [0x0102_0304, 0xA1B2_C3D4, UInt32.max, 0],
    ]

    /// The format's bytes for `numbers`, worked out by shifting rather than through `BinaryRecord`.
    static func littleEndianBytes(_ numbers: [UInt32]) -> [UInt8] {
        numbers.flatMap { number in (0..<4).map { UInt8(truncatingIfNeeded: number >> (8 * $0)) } }
    }

    @Test(
        "the block copy and the number-at-a-time path both append each number's four bytes, low byte first",
        arguments: lists)
    func bothPathsWriteTheSameBytes(_ numbers: [UInt32]) {
        let before: [UInt8] = [0xEE]
        let expected = before + Self.littleEndianBytes(numbers)
        var block = before
        BinaryRecord.append(contentsOf: numbers, to: &block)
        var oneByOne = before
        BinaryRecord.append(contentsOf: numbers, to: &oneByOne, littleEndianHost: false)
        #expect(block == expected)
        #expect(oneByOne == expected)
    }

    @Test("the block copy is taken exactly where the machine stores numbers low byte first")
    func hostByteOrderIsTheMachines() {
        let lowByteFirst = withUnsafeBytes(of: UInt32(1)) { $0.first == 1 }
        #expect(BinaryRecord.hostIsLittleEndian == lowByteFirst)
    }
}
