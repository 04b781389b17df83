/// Reads ISO 8601 date-times (`2024-01-31T08:00:00Z`, `...T08:00:00.5+02:00`) into seconds since 1970,
/// without Foundation, so that filters can compare instants written with different zones or precision.
enum DateTimeOffsetParser {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when `text` is not a valid date-time.
    /// Filter literals must carry a zone (`requiringZone`); record values without one are read as UTC.
    static func instant(_ text: String, requiringZone: Bool) -> Double? {
        var scanner = Scanner(Array(text.unicodeScalars))
        guard let year = scanner.digits(4), scanner.skip("-"),
            let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2), scanner.skip("T") || scanner.skip("t"),
            let hour = scanner.digits(2), scanner.skip(":"),
            let minute = scanner.digits(2)
        else { return nil }
        var second = 0.0
        if scanner.skip(":") {
            guard let whole = scanner.digits(2) else { return nil }
            second = Double(whole)
            if scanner.skip(".") {
                guard let fraction = scanner.fraction() else { return nil }
                second += fraction
            }
        }
        var offsetMinutes = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetMinutes = 0
        } else if let sign = scanner.sign() {
            guard let offsetHour = scanner.digits(2), scanner.skip(":"), let offsetMinute = scanner.digits(2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        } else if requiringZone {
            return nil
        }
        guard scanner.isAtEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let localSeconds = Double(days) * 86_400 + Double(hour * 3_600 + minute * 60) + second
        return localSeconds - Double(offsetMinutes * 60)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Number of days in a month, leap years included.
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A cursor over Unicode scalars with the few reads an ISO date needs.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var isAtEnd: Bool { index == scalars.count }

        /// Consumes `scalar` if it is next.
        mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
            return true
        }

        /// Consumes exactly `count` ASCII digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[index..<(index + count)] {
                guard let digit = Self.digitValue(scalar) else { return nil }
                value = value * 10 + digit
            }
            index += count
            return value
        }

        /// Consumes one or more digits after a decimal point as a fraction in [0, 1).
        mutating func fraction() -> Double? {
            var value = 0.0
            var scale = 0.1
            let start = index
            while index < scalars.count, let digit = Self.digitValue(scalars[index]) {
                value += Double(digit) * scale
                scale /= 10
                index += 1
            }
            return index > start ? value : nil
        }

        /// Consumes `+` or `-` and returns 1 or -1.
        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }

        private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
            scalar.value >= 48 && scalar.value <= 57 ? Int(scalar.value - 48) : nil
        }
    }
}
