import Foundation

/// Snapshot file names: the UTC time the snapshot was taken, e.g. `2026-03-04T02-00-00Z.json`.
///
/// Colons are left out so the names are valid on every file system and need no quoting in a shell; names of
/// snapshots taken within the same second get `-2`, `-3`… before the extension.
enum SnapshotName {
    static let fileExtension = "json"

    /// The name for a snapshot taken at `date`, with `sequence` > 1 for a later one in the same second.
    static func make(for date: Date, sequence: Int = 1) -> String {
        let stamp = self.stamp(for: date)
        return sequence > 1 ? "\(stamp)-\(sequence).\(fileExtension)" : "\(stamp).\(fileExtension)"
    }

    /// `YYYY-MM-DDTHH-MM-SSZ` in UTC.
    static func stamp(for date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2))-\(pad(parts.minute, 2))-\(pad(parts.second, 2))Z"
    }

    /// The time and sequence in a snapshot name, or nil when the name is not one.
    static func parse(_ name: String) -> (date: Date, sequence: Int)? {
        let suffix = "." + fileExtension
        guard name.hasSuffix(suffix) else { return nil }
        let base = Array(name.dropLast(suffix.count).utf8)
        // YYYY-MM-DDTHH-MM-SSZ is 20 bytes; then optionally -N.
        guard base.count >= 20 else { return nil }
        let pattern = Array("dddd-dd-ddTdd-dd-ddZ".utf8)
        for (byte, expected) in zip(base, pattern) {
            if expected == UInt8(ascii: "d") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            } else if byte != expected {
                return nil
            }
        }
        var sequence = 1
        if base.count > 20 {
            guard base[20] == UInt8(ascii: "-"), let number = Int(String(decoding: base[21...], as: UTF8.self)),
                number > 1
            else { return nil }
            sequence = number
        }
        func number(_ range: Range<Int>) -> Int { Int(String(decoding: base[range], as: UTF8.self)) ?? -1 }
        let components = DateComponents(
            calendar: utcCalendar, timeZone: utcCalendar.timeZone, year: number(0..<4), month: number(5..<7),
            day: number(8..<10), hour: number(11..<13), minute: number(14..<16), second: number(17..<19))
        guard components.isValidDate, let date = components.date else { return nil }
        return (date, sequence)
    }

    /// Whether `text` is a UTC day, `YYYY-MM-DD`, as `orgdir diff 2026-03-04` accepts it.
    static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let pattern = Array("dddd-dd-dd".utf8)
        guard bytes.count == pattern.count else { return false }
        return zip(bytes, pattern).allSatisfy { byte, expected in
            expected == UInt8(ascii: "d")
                ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
        }
    }

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
