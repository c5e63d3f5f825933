import Foundation
import PixpipeImage
import Testing

/// The scripts' lists come from Package.swift and the codec table, so that a new format is installed,
/// layer-checked and fuzzed with no edit to a script: `scripts/bootstrap --print`,
/// `scripts/check-layers --print` and `PIXPIPE_FUZZ_FORMAT=list FuzzCodec`, run as processes.
@Suite("Script lists")
struct ScriptListsTests {
    /// The package's folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `arguments` (a program and its arguments) in `directory`.
    static func run(_ arguments: [String], in directory: URL = packageRoot) throws -> PixpipeExecutable.Result {
        let env = PixpipeExecutable(url: URL(fileURLWithPath: "/usr/bin/env"))
        return try env.run(arguments, in: directory)
    }

    /// Every quoted name inside `.apt([...])` in `manifest`.
    static func aptPackages(in manifest: String) -> [String] {
        manifest.components(separatedBy: ".apt([").dropFirst().flatMap { rest in
            (rest.components(separatedBy: "])").first ?? "").split(separator: "\"", omittingEmptySubsequences: false)
                .enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }

    /// Every `pkgConfig: "..."` value in `manifest`.
    static func pkgConfigModules(in manifest: String) -> [String] {
        manifest.components(separatedBy: "pkgConfig: \"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    /// The packages of every `// test tools: .apt([...])` line in `manifest`: the codec tests' reference tools.
    static func testTools(in manifest: String) -> [String] {
        aptPackages(
            in: manifest.components(separatedBy: "\n").filter { $0.contains("// test tools: .apt([") }
                .joined(separator: "\n"))
    }

    @Test("bootstrap --print lists every system library's apt packages and pkg-config modules, the tools, and extras")
    func bootstrapListsEverySystemLibrary() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let result = try Self.run(["scripts/bootstrap", "--print", "extra-package"])
        #expect(result.status == 0, "\(result.errors)")
        let lines = Set(result.outputLines)
        let packages = Self.aptPackages(in: manifest)
        #expect(packages.contains("libgif-dev"))  // the library without a pkg-config file
        // Each format's reference tools are declared beside its library, not listed in the script.
        let tools = Self.testTools(in: manifest)
        #expect(!tools.isEmpty)
        for package in packages + tools + ["nginx", "openssl", "time"] {
            #expect(lines.contains(package), "\(package)")
        }
        for module in Self.pkgConfigModules(in: manifest) { #expect(lines.contains("pkg-config: \(module)")) }
        #expect(lines.contains("extra-package"))
        #expect(!lines.contains("pkg-config: -"))
    }

    @Test("a new system library, its test tools and a dlopen C target reach bootstrap and check-layers unedited")
    func newCodecIsPickedUp() throws {
        let copy = try TemporaryDirectory()
        let files = FileManager.default
        for folder in ["scripts", "Sources"] {
            try files.copyItem(
                at: Self.packageRoot.appendingPathComponent(folder), to: copy.url.appendingPathComponent(folder))
        }
        // A codec as the format engineers add one: a system library PixpipeImage's C target depends on, and
        // a C target that names the SONAME it loads on first use.
        var manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        manifest = manifest.replacingOccurrences(
            of: "        .systemLibrary(\n            name: \"CLibPNG\",",
            with: """
                        .systemLibrary(
                            name: "CLibFake", pkgConfig: "libfake", providers: [.apt(["libfake-dev"]), .brew(["fake"])]
                            // test tools: .apt(["libfake-tools", "fake-reference"]): what the fake tests compare with
                        ),
                        .systemLibrary(
                            name: "CLibPNG",
                """)
        manifest = manifest.replacingOccurrences(
            of: "\"CPixpipeImage\", \"CLibWebP\"", with: "\"CLibFake\", \"CPixpipeImage\", \"CLibWebP\"")
        #expect(manifest.contains("\"CLibFake\", \"CPixpipeImage\""))
        try manifest.write(to: copy.url.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let library = copy.url.appendingPathComponent("Sources/CLibFake")
        try files.createDirectory(at: library, withIntermediateDirectories: true)
        try "module CLibFake [system] {\n    header \"shim.h\"\n    link \"fake\"\n    export *\n}\n"
            .write(to: library.appendingPathComponent("module.modulemap"), atomically: true, encoding: .utf8)
        let cTarget = copy.url.appendingPathComponent("Sources/CPixpipe/Fake")
        try files.createDirectory(at: cTarget, withIntermediateDirectories: true)
        try "#define PXP_FAKE_SONAME \"libfakecodec.so.3\"\n"
            .write(to: cTarget.appendingPathComponent("pixpipe_fake.c"), atomically: true, encoding: .utf8)

        let bootstrap = try Self.run(["scripts/bootstrap", "--print"], in: copy.url)
        #expect(bootstrap.outputLines.contains("libfake-dev"))
        #expect(bootstrap.outputLines.contains("pkg-config: libfake"))
        #expect(bootstrap.outputLines.contains("libfake-tools") && bootstrap.outputLines.contains("fake-reference"))
        #expect(!bootstrap.outputLines.contains("-"))

        let layers = try Self.run(["scripts/check-layers", "--print"], in: copy.url)
        #expect(layers.status == 0, "\(layers.errors)")
        let lines = layers.outputLines
        let image = try #require(lines.first { $0.hasPrefix("image codec libraries: ") })
        let firstUse = try #require(lines.first { $0.hasPrefix("loaded on first use: ") })
        let imageLibraries = Set(image.dropFirst("image codec libraries: ".count).split(separator: "|"))
        #expect(
            imageLibraries.isSuperset(of: [
                "libfake", "libpng16", "libjpeg", "libwebp", "libgif", "libavif", "liblcms2",
            ]))
        #expect(!imageLibraries.contains("libcurl"))
        #expect(
            Set(firstUse.dropFirst("loaded on first use: ".count).split(separator: "|")).isSuperset(of: [
                "libavif", "libfakecodec",
            ]))
        #expect(lines.contains { $0.hasPrefix("check: pixpipe:") && $0.contains("libfakecodec") })
        #expect(lines.contains { $0.hasPrefix("check: PixpipeRequestLoop:") && $0.contains("libfake|") })
    }

    @Test("FuzzCodec lists every decodable format of the codec table with its corpus folder")
    func fuzzCodecListsTheTable() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let fuzzer = pixpipe.url.deletingLastPathComponent().appendingPathComponent("FuzzCodec")
        try #require(FileManager.default.isExecutableFile(atPath: fuzzer.path))
        let result = try Self.run(["PIXPIPE_FUZZ_FORMAT=list", fuzzer.path])
        #expect(result.status == 0)
        // The child sees the built-in table; this process may also hold codecs other tests registered.
        let registered = Set(ImageCodecs.registeredFormats)
        let expected = ImageFormat.all.filter { $0.canDecode && !registered.contains($0) }
            .map { "\($0.rawValue)\t\($0.corpusFolder)" }
        #expect(result.outputLines == expected)
        #expect(result.outputLines.contains("png\tpngsuite") && result.outputLines.contains("jpeg\tlibjpeg-turbo"))

        let unknown = try Self.run(["PIXPIPE_FUZZ_FORMAT=nope", fuzzer.path, "/dev/null"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("PIXPIPE_FUZZ_FORMAT"))
    }
}
