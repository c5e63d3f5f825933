import Foundation
import PixpipeHTTP
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    /// 1994-11-06 08:49:37 UTC, the example of RFC 9110 5.6.7.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(
        "The three formats of RFC 9110 read as the same instant",
        arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func threeFormats(text: String) {
        #expect(HTTPDate.parse(text, now: Date(timeIntervalSince1970: 1_700_000_000)) == Self.example)
    }

    @Test("Dates across leap days, the epoch and the last second of a year")
    func calendar() {
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
        #expect(HTTPDate.parse("Fri, 31 Dec 1999 23:59:59 GMT") == Date(timeIntervalSince1970: 946_684_799))
        #expect(HTTPDate.parse("Wed, 21 Oct 2015 07:28:00 GMT") == Date(timeIntervalSince1970: 1_445_412_480))
        // Month names are case-insensitive, as servers vary.
        #expect(HTTPDate.parse("Wed, 21 OCT 2015 07:28:00 GMT") == Date(timeIntervalSince1970: 1_445_412_480))
    }

    @Test("An RFC 850 year is at most 50 years ahead of now")
    func twoDigitYears() {
        let now = HTTPDate.parse("Mon, 01 Jun 2026 00:00:00 GMT")!
        #expect(HTTPDate.parse("Monday, 01-Jun-26 00:00:00 GMT", now: now) == now)
        let seventySix = HTTPDate.parse("Tuesday, 01-Jun-76 00:00:00 GMT", now: now)
        #expect(seventySix == HTTPDate.parse("Tue, 01 Jun 2076 00:00:00 GMT"))
        let seventySeven = HTTPDate.parse("Tuesday, 01-Jun-77 00:00:00 GMT", now: now)
        #expect(seventySeven == HTTPDate.parse("Wed, 01 Jun 1977 00:00:00 GMT"))
        // The current year is exact at its edges: the last second of 2026, then the first of 2027.
        let lastSecond = HTTPDate.parse("Thu, 31 Dec 2026 23:59:59 GMT")!
        let firstSecond = lastSecond.addingTimeInterval(1)
        let year77 = "Friday, 01-Jan-77 00:00:00 GMT"
        #expect(HTTPDate.parse(year77, now: lastSecond) == HTTPDate.parse("Sat, 01 Jan 1977 00:00:00 GMT"))
        #expect(HTTPDate.parse(year77, now: firstSecond) == HTTPDate.parse("Fri, 01 Jan 2077 00:00:00 GMT"))
    }

    @Test(
        "Malformed dates read as nil",
        arguments: [
            "", "0", "-1", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 31 Feb 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
            "Sun Nov  6 08:49:37 1994 extra", "Sun, 06 Nov 1994 08:49:37 GMT junk",
        ])
    func malformed(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
