import Foundation

/// Parsing of HTTP dates in the three formats RFC 9110 5.6.7 requires recipients to accept, by hand.
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")    // IMF-fixdate
/// HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")   // RFC 850
/// HTTPDate.parse("Sun Nov  6 08:49:37 1994")         // asctime
/// ```
///
/// A byte scanner rather than `DateFormatter`: a cache reads `Date`, `Expires` and `Last-Modified` on every
/// response it stores and every entry it opens, and a formatter (not `Sendable`, so made per call) costs
/// tens of microseconds to create. The weekday name is skipped, not checked: it carries nothing the rest
/// does not, and servers get it wrong.
public enum HTTPDate {
    /// The date in `text` in any of the three formats, or `nil`.
    ///
    /// An RFC 850 two-digit year is read as RFC 9110 says: the year with those last two digits that is not
    /// more than 50 years after `now`.
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        // Every format starts with a weekday name.
        guard scanner.skipLetters() > 0 else { return nil }
        if scanner.take(UInt8(ascii: ",")) {
            scanner.skipSpaces()
            guard let day = scanner.number(maxDigits: 2) else { return nil }
            if scanner.take(UInt8(ascii: "-")) {
                // RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`.
                guard let month = scanner.month(), scanner.take(UInt8(ascii: "-")),
                    let shortYear = scanner.number(maxDigits: 2), scanner.take(UInt8(ascii: " ")),
                    let time = scanner.time(), scanner.gmt()
                else { return nil }
                return date(year: fullYear(shortYear, now: now), month: month, day: day, time: time)
            }
            // IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
            guard scanner.take(UInt8(ascii: " ")), let month = scanner.month(), scanner.take(UInt8(ascii: " ")),
                let year = scanner.number(maxDigits: 4), scanner.take(UInt8(ascii: " ")), let time = scanner.time(),
                scanner.gmt()
            else { return nil }
            return date(year: year, month: month, day: day, time: time)
        }
        // asctime: `Sun Nov  6 08:49:37 1994` (the day padded with a space).
        guard scanner.take(UInt8(ascii: " ")), let month = scanner.month(), scanner.take(UInt8(ascii: " ")) else {
            return nil
        }
        scanner.skipSpaces()
        guard let day = scanner.number(maxDigits: 2), scanner.take(UInt8(ascii: " ")), let time = scanner.time(),
            scanner.take(UInt8(ascii: " ")), let year = scanner.number(maxDigits: 4)
        else { return nil }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    /// The four-digit year of an RFC 850 two-digit year, at most 50 years after `now`'s year.
    static func fullYear(_ shortYear: Int, now: Date) -> Int {
        let days = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        // An estimate from the mean Gregorian year, then corrected to the exact year holding `days`.
        var currentYear = 1970 + Int((Double(days) / 365.2425).rounded(.down))
        while daysFromEpoch(year: currentYear + 1, month: 1, day: 1) <= days { currentYear += 1 }
        while daysFromEpoch(year: currentYear, month: 1, day: 1) > days { currentYear -= 1 }
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        if year <= currentYear - 50 { year += 100 }
        return year
    }

    /// Seconds of a day: hour, minute, second.
    typealias Time = (hour: Int, minute: Int, second: Int)

    /// The UTC instant, or `nil` for a day or time out of range (a leap second 60 is accepted as RFC 5322 does).
    static func date(year: Int, month: Int, day: Int, time: Time) -> Date? {
        guard year >= 1, day >= 1, day <= daysIn(month: month, year: year), time.hour < 24, time.minute < 60,
            time.second <= 60
        else { return nil }
        let days = daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (negative before 1970).
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        // Whole years from year 1 to `year`, then whole months of `year`, then the day.
        let previous = year - 1
        let daysBeforeYear = previous * 365 + previous / 4 - previous / 100 + previous / 400
        var daysBeforeMonth = 0
        for earlier in 1..<month { daysBeforeMonth += daysIn(month: earlier, year: year) }
        // 719_162 days separate 0001-01-01 from 1970-01-01.
        return daysBeforeYear + daysBeforeMonth + day - 1 - 719_162
    }

    /// The number of days of `month` (1-12) in `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A cursor over the bytes of a date.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }

    /// Consumes ASCII letters and returns how many.
    mutating func skipLetters() -> Int {
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"),
            (bytes[index] | 0x20) <= UInt8(ascii: "z")
        {
            index += 1
        }
        return index - start
    }

    /// One to `maxDigits` decimal digits.
    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while digits < maxDigits, index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
            bytes[index] <= UInt8(ascii: "9")
        {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// A three-letter English month name (case-insensitive), as 1-12.
    mutating func month() -> Int? {
        guard index + 3 <= bytes.count else { return nil }
        let name = String(decoding: bytes[index..<index + 3].map { $0 | 0x20 }, as: UTF8.self)
        guard let position = Self.months.firstIndex(of: name) else { return nil }
        index += 3
        return position + 1
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `HH:MM:SS`, two digits each.
    mutating func time() -> HTTPDate.Time? {
        guard let hour = twoDigits(), take(UInt8(ascii: ":")), let minute = twoDigits(), take(UInt8(ascii: ":")),
            let second = twoDigits()
        else { return nil }
        return (hour, minute, second)
    }

    private mutating func twoDigits() -> Int? {
        let start = index
        guard let value = number(maxDigits: 2), index - start == 2 else { return nil }
        return value
    }

    /// ` GMT` and the end (trailing spaces allowed).
    mutating func gmt() -> Bool {
        guard take(UInt8(ascii: " ")), take(UInt8(ascii: "G")), take(UInt8(ascii: "M")), take(UInt8(ascii: "T")) else {
            return false
        }
        skipSpaces()
        return isAtEnd
    }
}
