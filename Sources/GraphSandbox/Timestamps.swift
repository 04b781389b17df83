import Foundation

/// The date formats the identity platform and Graph put into bodies and headers, formatted by hand in
/// UTC: no formatter objects to share between threads, and cheap enough for generating large tenants.
enum Timestamps {
    /// Graph's innerError `date`: ISO 8601 without a zone, e.g. `2021-05-18T19:12:36`.
    static func graphDate(_ date: Date) -> String {
        let parts = UTCParts(date)
        return "\(parts.date)T\(parts.time)"
    }

    /// ISO 8601 with `Z`, as in `createdDateTime`.
    static func iso8601(_ date: Date) -> String {
        graphDate(date) + "Z"
    }

    /// The token endpoint's `timestamp`: `2016-01-09 02:02:12Z`.
    static func identityTimestamp(_ date: Date) -> String {
        let parts = UTCParts(date)
        return "\(parts.date) \(parts.time)Z"
    }

    /// An RFC 1123 HTTP-date, as in `Date` and `Retry-After` headers.
    static func httpDate(_ date: Date) -> String {
        let parts = UTCParts(date)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((parts.days % 7) + 7) % 7]
        return "\(weekday), \(pad(parts.day)) \(months[parts.month - 1]) \(parts.year) \(parts.time) GMT"
    }

    /// Calendar fields of a UTC instant (whole seconds, rounded down).
    private struct UTCParts {
        let days: Int
        let year: Int
        let month: Int
        let day: Int
        let seconds: Int

        init(_ date: Date) {
            let total = Int(date.timeIntervalSince1970.rounded(.down))
            var days = total / 86_400
            var seconds = total % 86_400
            if seconds < 0 {
                seconds += 86_400
                days -= 1
            }
            self.days = days
            self.seconds = seconds
            // Howard Hinnant's days-to-civil algorithm.
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
            month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        }

        var date: String { "\(year)-\(pad(month))-\(pad(day))" }
        var time: String { "\(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60))" }
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
