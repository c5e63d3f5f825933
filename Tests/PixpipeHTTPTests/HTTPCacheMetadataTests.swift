import Foundation
import PixpipeHTTP
import Testing

/// Each freshness rule of RFC 9111 against fixed clocks: the request leaves at `sent`, the response comes
/// back 2 s later, and ages are read at chosen times after that.
@Suite("HTTP cache freshness")
struct HTTPCacheMetadataTests {
    static let sent = Date(timeIntervalSince1970: 1_700_000_000)
    static let received = sent.addingTimeInterval(2)
    /// `Date` of a response made at `received`.
    static let dateHeader = "Tue, 14 Nov 2023 22:13:22 GMT"

    static func metadata(_ headers: HTTPHeaders, status: Int = 200) -> HTTPCacheMetadata {
        HTTPCacheMetadata(statusCode: status, headers: headers, requestTime: sent, responseTime: received)
    }

    static func later(_ seconds: TimeInterval) -> Date { received.addingTimeInterval(seconds) }

    @Test("The fixture's Date header is its receive time")
    func fixture() {
        #expect(HTTPDate.parse(Self.dateHeader) == Self.received)
    }

    @Test("max-age: fresh until the age reaches it, the round trip counted as age")
    func maxAge() {
        let entry = Self.metadata(["Cache-Control": "public, max-age=60", "Date": Self.dateHeader])
        #expect(entry.freshnessLifetime == 60)
        // Age at receipt is the 2 s the request took (RFC 9111 4.2.3's response_delay).
        #expect(entry.currentAge(now: Self.received) == 2)
        #expect(entry.isFresh(now: Self.later(57)))
        #expect(!entry.isFresh(now: Self.later(58)))
    }

    @Test("Age adds to the current age; a Date in the past is the apparent age")
    func ageHeader() {
        let aged = Self.metadata(["Cache-Control": "max-age=100", "Age": "30", "Date": Self.dateHeader])
        #expect(aged.currentAge(now: Self.later(10)) == 42)
        let old = Self.metadata(["Cache-Control": "max-age=100", "Date": "Tue, 14 Nov 2023 22:12:22 GMT"])
        #expect(old.currentAge(now: Self.received) == 60)
        // The larger of the two corrections wins, not their sum.
        let both = Self.metadata(["Cache-Control": "max-age=100", "Age": "5", "Date": "Tue, 14 Nov 2023 22:12:22 GMT"])
        #expect(both.currentAge(now: Self.received) == 60)
    }

    @Test("s-maxage is for shared caches and ignored; max-age wins over Expires")
    func sharedAndExpires() {
        let shared = Self.metadata(["Cache-Control": "s-maxage=600", "Date": Self.dateHeader])
        #expect(shared.freshnessLifetime == 0)
        let both = Self.metadata([
            "Cache-Control": "max-age=10", "Expires": "Tue, 14 Nov 2023 23:13:22 GMT", "Date": Self.dateHeader,
        ])
        #expect(both.freshnessLifetime == 10)
    }

    @Test("Expires less Date is the lifetime; an invalid Expires is already expired")
    func expires() {
        let entry = Self.metadata(["Expires": "Tue, 14 Nov 2023 23:13:22 GMT", "Date": Self.dateHeader])
        #expect(entry.freshnessLifetime == 3_600)
        #expect(entry.isFresh(now: Self.later(3_000)))
        #expect(!entry.isFresh(now: Self.later(3_600)))
        let invalid = Self.metadata(["Expires": "0", "Last-Modified": "Mon, 13 Nov 2023 22:13:22 GMT"])
        #expect(invalid.freshnessLifetime == 0)
        #expect(invalid.isStorable)
    }

    @Test("Without Date, Expires counts from the receive time")
    func expiresWithoutDate() {
        let entry = Self.metadata(["Expires": "Tue, 14 Nov 2023 22:14:22 GMT"])
        #expect(entry.freshnessLifetime == 60)
    }

    @Test("Heuristic: 10% of the time since Last-Modified, at most a day, only for cacheable statuses")
    func heuristic() {
        let tenDaysOld = Self.metadata(["Date": Self.dateHeader, "Last-Modified": "Sat, 04 Nov 2023 22:13:22 GMT"])
        #expect(tenDaysOld.freshnessLifetime == 86_400)
        let tenHoursOld = Self.metadata(["Date": Self.dateHeader, "Last-Modified": "Tue, 14 Nov 2023 12:13:22 GMT"])
        #expect(tenHoursOld.freshnessLifetime == 3_600)
        let notCacheable = Self.metadata(
            ["Date": Self.dateHeader, "Last-Modified": "Tue, 14 Nov 2023 12:13:22 GMT"], status: 500)
        #expect(notCacheable.freshnessLifetime == 0)
        #expect(!notCacheable.isStorable)
        #expect(Self.metadata([:]).freshnessLifetime == 0)
    }

    @Test("no-store is not stored; no-cache is stored but never fresh; must-revalidate forbids stale use")
    func directives() {
        #expect(!Self.metadata(["Cache-Control": "no-store, max-age=60"]).isStorable)
        let noCache = Self.metadata(["Cache-Control": "no-cache, max-age=60", "ETag": "\"v1\""])
        #expect(noCache.isStorable)
        #expect(!noCache.isFresh(now: Self.received))
        #expect(HTTPCachePolicy.http.use(noCache, now: Self.received) == .revalidate(["If-None-Match": "\"v1\""]))
        #expect(!noCache.mayServeStale)
        #expect(!Self.metadata(["Cache-Control": "max-age=60, must-revalidate"]).mayServeStale)
        #expect(Self.metadata(["Cache-Control": "max-age=60"]).mayServeStale)
        // Parsing: case, spaces, quotes, repeats and several fields.
        let parsed = CacheControl("  Max-Age=\"30\" , NO-CACHE, max-age=99, community=\"x\"")
        #expect(parsed.maxAge == 30 && parsed.noCache && !parsed.noStore)
        #expect(CacheControl("max-age=soon").maxAge == 0)
        #expect(CacheControl("max-age=99999999999999999999").maxAge == 1 << 31)
        let fields = HTTPHeaders([("Cache-Control", "max-age=5"), ("cache-control", "no-store")])
        #expect(CacheControl(headers: fields).noStore)
    }

    @Test("Validators make conditional headers; without them a stale entry is refetched")
    func validators() {
        let entry = Self.metadata([
            "Cache-Control": "max-age=60", "ETag": "W/\"abc\"", "Last-Modified": "Mon, 13 Nov 2023 22:13:22 GMT",
        ])
        #expect(entry.conditionalHeaders["If-None-Match"] == "W/\"abc\"")
        #expect(entry.conditionalHeaders["If-Modified-Since"] == "Mon, 13 Nov 2023 22:13:22 GMT")
        #expect(HTTPCachePolicy.http.use(entry, now: Self.later(10)) == .fresh)
        #expect(HTTPCachePolicy.http.use(entry, now: Self.later(100)) == .revalidate(entry.conditionalHeaders))
        let bare = Self.metadata(["Cache-Control": "max-age=60"])
        #expect(!bare.hasValidators)
        #expect(HTTPCachePolicy.http.use(bare, now: Self.later(100)) == .refetch)
    }

    @Test("A 304 replaces the fields it carries and restarts freshness; Content-Length stays")
    func notModified() {
        let entry = Self.metadata([
            "Cache-Control": "max-age=60", "ETag": "\"v1\"", "Content-Length": "1234", "Content-Type": "image/png",
            "Date": Self.dateHeader,
        ])
        let revalidatedAt = Self.later(1_000)
        let updated = entry.updated(
            with: [
                "Cache-Control": "max-age=120", "Date": "Tue, 14 Nov 2023 22:30:02 GMT", "Content-Length": "0",
                "Connection": "close",
            ],
            requestTime: revalidatedAt.addingTimeInterval(-1), responseTime: revalidatedAt)
        #expect(updated.headers["Cache-Control"] == "max-age=120")
        #expect(updated.headers["Content-Length"] == "1234")
        #expect(updated.headers["Content-Type"] == "image/png")
        #expect(updated.headers["ETag"] == "\"v1\"")
        #expect(updated.headers["Connection"] == nil)
        #expect(updated.statusCode == 200)
        #expect(!entry.isFresh(now: revalidatedAt))
        #expect(updated.isFresh(now: revalidatedAt.addingTimeInterval(100)))
        #expect(!updated.isFresh(now: revalidatedAt.addingTimeInterval(120)))
    }

    @Test("Hop-by-hop fields and those Connection names are not stored")
    func hopByHop() {
        let entry = Self.metadata(["Connection": "close, X-Trace", "X-Trace": "1", "Keep-Alive": "5", "ETag": "\"e\""])
        #expect(entry.headers == ["ETag": "\"e\""])
    }

    @Test("Policies: .always stores successes and never revalidates, .never stores nothing")
    func policies() {
        let noStore = Self.metadata(["Cache-Control": "no-store"])
        #expect(HTTPCachePolicy.always.mayStore(noStore))
        #expect(!HTTPCachePolicy.always.mayStore(Self.metadata([:], status: 404)))
        #expect(HTTPCachePolicy.always.use(noStore, now: Self.later(1e9)) == .fresh)
        let cacheable = Self.metadata(["Cache-Control": "max-age=60"])
        #expect(HTTPCachePolicy.http.mayStore(cacheable))
        #expect(!HTTPCachePolicy.never.mayStore(cacheable))
        #expect(HTTPCachePolicy.never.use(cacheable, now: Self.received) == .refetch)
    }

    @Test("Metadata survives a JSON round trip, repeated fields in order")
    func codable() throws {
        let entry = Self.metadata(HTTPHeaders([("Vary", "a"), ("ETag", "\"x\""), ("vary", "b")]), status: 203)
        let decoded = try JSONDecoder().decode(HTTPCacheMetadata.self, from: JSONEncoder().encode(entry))
        #expect(decoded == entry)
    }
}
