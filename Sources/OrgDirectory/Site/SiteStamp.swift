import Foundation

/// The "data as of" time shown on every page, formatted without locale so bytes are the same everywhere.
struct SiteStamp: Equatable, Sendable {
    /// `2025-11-22 14:05 UTC`.
    let display: String
    /// `2025-11-22T14:05:09Z` for `<time datetime>` and Atom dates (RFC 3339).
    let iso: String
    /// `2025-11-22`, for history lines ("Sales → Operations, 2025-11-22").
    let day: String
    /// The date the texts are made from.
    let date: Date

    /// The whole seconds since 1970 that `display` and `iso` show of `date` (they show nothing finer): what a page
    /// fingerprint takes of a stamp, a number where the texts are two strings most pages share, whose counts both
    /// cores changed for every page (see `SiteHistory.PersonHistory`).
    static func seconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }

    init(_ date: Date) {
        self.date = date
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let day = "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))"
        self.day = day
        display = "\(day) \(two(parts.hour)):\(two(parts.minute)) UTC"
        iso = "\(day)T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }
}
