import Foundation

/// Parsing of the `Retry-After` header, in both of its forms.
public enum RetryAfter {
    /// The wait `value` asks for: a number of seconds (`120`) or an HTTP date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`, measured from `now`). `nil` when unreadable; a date in the past is zero.
    public static func delay(from value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingSpaces()
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = httpDate(trimmed) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }

    /// The formats RFC 9110 5.6.7 requires recipients to accept: IMF-fixdate, RFC 850 and asctime.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    /// The date in `string`, in any of the HTTP date formats, or `nil`.
    static func httpDate(_ string: String) -> Date? {
        for format in formats {
            // A formatter per call: DateFormatter is not Sendable, and Retry-After is rare.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: string) { return date }
        }
        return nil
    }
}
