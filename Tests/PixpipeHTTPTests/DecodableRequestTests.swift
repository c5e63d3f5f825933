import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

/// A plain `Decodable` model, with no conformance to anything of this package.
private struct Model: Decodable, Equatable {
    var name: String
    var size: Int
}

/// A model that names its own key paths, read elsewhere through a per-request key path.
private struct Comic: DecodableResponse, Equatable {
    static let keyPath: String? = "data.comic"
    static let listKeyPath: String? = "data.comics"
    var title: String
}

/// A model whose dates need the decoder it names.
private struct Event: DecodableResponse, Equatable {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
    var at: Date
}

extension SocketTests {
    /// `Request<T>` and `Request<[T]>` for any `Decodable`, at the root or at a key path given per request,
    /// over a real socket.
    @Suite("Requests for any Decodable model")
    struct DecodableRequestTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
            server.route("/list.json", .json(#"[{"name":"a","size":1},{"name":"b","size":2}]"#))
            server.route(
                "/models.json", .json(#"{"data":{"model_list":[{"name":"a","size":1},{"name":"b","size":2}]}}"#))
            server.route("/home.json", .json(#"{"featured":{"models":[{"name":"b","size":2}]}}"#))
            server.route("/one.json", .json(#"{"name":"c","size":3}"#))
        }

        @Test("A plain Decodable model and an array of them, at the body's root")
        func plainModelAtRoot() async throws {
            let list = try await client.send(Request<[Model]>(path: "/list.json"))
            #expect(list == [Model(name: "a", size: 1), Model(name: "b", size: 2)])
            let one = try await client.send(Request<Model>(url: server.url("/one.json")))
            #expect(one == Model(name: "c", size: 3))
        }

        @Test("One model read from two endpoints that nest it differently, by per-request key paths")
        func perRequestKeyPath() async throws {
            let all = try await client.send(Request<[Model]>(path: "/models.json", keyPath: "data.model_list"))
            let featured = try await client.send(
                Request<[Model]>(url: server.url("/home.json"), keyPath: "featured.models"))
            #expect(all.map(\.name) == ["a", "b"])
            #expect(featured == [Model(name: "b", size: 2)])
            let second = try await client.send(Request<Model>(path: "/models.json", keyPath: "data.model_list.1"))
            #expect(second.name == "b")
        }

        @Test("A DecodableResponse keeps its own key paths, and a request's key path wins over them")
        func decodableResponseKeyPaths() async throws {
            server.route("/comic.json", .json(#"{"data":{"comic":{"title":"one"}}}"#))
            server.route("/comics.json", .json(#"{"data":{"comics":[{"title":"one"},{"title":"two"}]}}"#))
            server.route("/archive.json", .json(#"{"archive":[{"title":"old"}]}"#))
            #expect(try await client.send(Request<Comic>(path: "/comic.json")).title == "one")
            #expect(try await client.send(Request<[Comic]>(path: "/comics.json")).map(\.title) == ["one", "two"])
            #expect(
                try await client.send(Request<[Comic]>(path: "/archive.json", keyPath: "archive")) == [
                    Comic(title: "old")
                ])
        }

        @Test("A key path uses the decoder a DecodableResponse names, for one value and for a list")
        func decoderOfTheModel() async throws {
            server.route("/events.json", .json(#"{"events":[{"at":86400}]}"#))
            let events = try await client.send(Request<[Event]>(path: "/events.json", keyPath: "events"))
            #expect(events == [Event(at: Date(timeIntervalSince1970: 86400))])
            let first = try await client.send(Request<Event>(path: "/events.json", keyPath: "events.0"))
            #expect(first.at == Date(timeIntervalSince1970: 86400))
        }

        @Test("Types that convert themselves keep doing so: String stays text, JSON stays JSON")
        func convertibleTypesKeepTheirConversion() async throws {
            #expect(try await client.send(Request<String>(path: "/one.json")) == #"{"name":"c","size":3}"#)
            #expect(try await client.send(Request<JSON>(path: "/one.json"))["name"] == "c")
            #expect(
                try await client.send(Request<JSON>(path: "/models.json", keyPath: "data.model_list.0.name")) == "a")
        }

        @Test("A plain Decodable model through a task and through a completion handler")
        func taskAndCompletion() async throws {
            let task = client.task(for: Request<[Model]>(path: "/models.json", keyPath: "data.model_list"))
            #expect(try await task.value.count == 2)
            let result = await withCheckedContinuation { continuation in
                client.send(Request<Model>(path: "/one.json")) { continuation.resume(returning: $0) }
            }
            #expect(try result.get() == Model(name: "c", size: 3))
        }

        @Test("A missing key path and a model that does not match fail with typed errors naming them")
        func typedFailures() async throws {
            let missing = await #expect(throws: HTTPError.self) {
                try await client.send(Request<[Model]>(path: "/models.json", keyPath: "data.models"))
            }
            #expect(missing == .conversionFailed(.keyPathNotFound("data.models"), url: server.url("/models.json")))
            let mismatch = await #expect(throws: HTTPError.self) {
                try await client.send(Request<[Model]>(path: "/models.json"))
            }
            guard case .conversionFailed(.decodingFailed(let type, nil, _), _) = mismatch else {
                Issue.record("expected decodingFailed, got \(String(describing: mismatch))")
                return
            }
            #expect(type == "Array<Model>")
        }
    }
}
