import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

extension SocketTests {
    @Suite("Client conversions against a real socket")
    struct ClientConversionTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
        }

        @Test func stringUsesUTF8WithoutCharset() async throws {
            server.route("/text", .respond(headers: ["Content-Type": "text/plain"], body: Array("héllo".utf8)))
            let text = try await client.send(Request<String>(path: "/text"))
            #expect(text == "héllo")
        }

        @Test func stringUsesCharsetFromContentType() async throws {
            // "héllo" in ISO-8859-1: é is the single byte 0xE9, which is invalid UTF-8.
            server.route(
                "/latin1",
                .respond(
                    headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: [0x68, 0xE9, 0x6C, 0x6C, 0x6F]))
            let text = try await client.send(Request<String>(path: "/latin1"))
            #expect(text == "héllo")
        }

        @Test func stringRejectsInvalidUTF8() async throws {
            server.route("/bad", .respond(headers: ["Content-Type": "text/plain"], body: [0x68, 0xE9, 0x6C]))
            await #expect(
                throws: HTTPError.conversionFailed(.undecodableText(charset: "utf-8"), url: server.url("/bad"))
            ) {
                try await client.send(Request<String>(path: "/bad"))
            }
        }

        @Test func dataIsTheRawBody() async throws {
            let bytes: [UInt8] = [0, 1, 2, 250, 255]
            server.route("/bin", .respond(body: bytes))
            let response = try await client.response(for: Request<Data>(path: "/bin"))
            #expect(response.value == Data(bytes))
            #expect(response.statusCode == 200)
            #expect(response.url == server.url("/bin"))
            #expect(response.headers["content-length"] == "5")
        }

        struct Model: DecodableResponse, Equatable {
            static let listKeyPath: String? = "data.model_list"
            var name: String
            var size: Int
        }

        struct Comic: DecodableResponse, Equatable {
            static let keyPath: String? = "data.comic"
            var title: String
        }

        static let modelsJSON = """
            {"data": {"model_list": [{"name": "a", "size": 1}, {"name": "b", "size": 2}],
                      "comic": {"title": "Nemo"}},
             "items": [{"url": "http://x/1"}, {"url": "http://x/2"}], "ok": true, "none": null}
            """

        @Test func jsonKeyPathsReachNestedValues() async throws {
            server.route("/json", .json(Self.modelsJSON))
            let json = try await client.send(Request<JSON>(path: "/json"))
            #expect(json["data.model_list"]?.arrayValue?.count == 2)
            #expect(json["items.1.url"]?.stringValue == "http://x/2")
            #expect(json["data"]?["comic"]?["title"] == "Nemo")
            #expect(json["ok"]?.boolValue == true)
            #expect(json["none"]?.isNull == true)
            #expect(json["data.model_list.0.size"]?.intValue == 1)
            #expect(json["items.7.url"] == nil)
            #expect(json["data.missing"] == nil)
        }

        @Test func decodableAtKeyPathAndArraysOfThem() async throws {
            server.route("/json", .json(Self.modelsJSON))
            let comic = try await client.send(Request<Comic>(path: "/json"))
            #expect(comic == Comic(title: "Nemo"))
            let models = try await client.send(Request<[Model]>(path: "/json"))
            #expect(models == [Model(name: "a", size: 1), Model(name: "b", size: 2)])
        }

        @Test func decodedWrapperDecodesTheRoot() async throws {
            struct Point: Decodable, Sendable, Equatable {
                var x: Int
                var y: Int
            }
            server.route("/point", .json(#"{"x": 3, "y": 4}"#))
            let point = try await client.send(Request<Decoded<Point>>(path: "/point")).value
            #expect(point == Point(x: 3, y: 4))
        }

        @Test func missingKeyPathIsATypedConversionError() async throws {
            server.route("/json", .json(#"{"data": {}}"#))
            await #expect(throws: HTTPError.conversionFailed(.keyPathNotFound("data.comic"), url: server.url("/json")))
            {
                try await client.send(Request<Comic>(path: "/json"))
            }
        }

        @Test func invalidJSONIsATypedConversionError() async throws {
            server.route("/json", .json("{not json"))
            let error = await #expect(throws: HTTPError.self) {
                try await client.send(Request<JSON>(path: "/json"))
            }
            guard case .conversionFailed(.invalidJSON, let url) = error else {
                Issue.record("expected invalidJSON, got \(String(describing: error))")
                return
            }
            #expect(url == server.url("/json"))
        }

        @Test func statusOutsideTheAcceptedSetFailsBeforeConversion() async throws {
            server.route("/missing", .text("no such thing here", status: 404))
            await #expect(
                throws: HTTPError.httpStatus(code: 404, url: server.url("/missing"), bodyPrefix: "no such thing here")
            ) {
                try await client.send(Request<JSON>(path: "/missing"))
            }
            var request = Request<String>(path: "/missing")
            request.acceptableStatusCodes = [200, 404]
            #expect(try await client.send(request) == "no such thing here")
        }

        @Test func contentTypeIsCheckedBeforeConversion() async throws {
            server.route("/page", .text("<html>", contentType: "text/html; charset=utf-8"))
            var request = Request<String>(path: "/page")
            request.acceptableContentTypes = ["application/json", "text/plain"]
            await #expect(
                throws: HTTPError.unacceptableContentType(
                    "text/html; charset=utf-8", accepted: ["application/json", "text/plain"], url: server.url("/page"))
            ) {
                try await client.send(request)
            }
            request.acceptableContentTypes = ["text/*"]
            #expect(try await client.send(request) == "<html>")
        }
    }
}
