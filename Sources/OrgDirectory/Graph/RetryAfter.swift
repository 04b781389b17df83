import Foundation

/// Reads a `Retry-After` header: seconds (fractional too, as Graph's own sample `2.128`) or an HTTP date.
enum RetryAfter {
    static func seconds(from header: String?, now: Date = Date()) -> TimeInterval? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Double(header), seconds.isFinite, seconds >= 0 { return seconds }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: header) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
