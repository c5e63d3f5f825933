// swift-tools-version:6.0
import PackageDescription

#if os(Linux)
    import Glibc
#endif

/// Whether the glibc this package builds against reads packed relative relocations (`DT_RELR`, glibc 2.36).
/// The version is the build machine's, the one the executable links against; an executable linked with
/// `-z pack-relative-relocs` names `GLIBC_ABI_DT_RELR` and would refuse to start on an older loader.
func glibcReadsPackedRelocations() -> Bool {
    #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 64)
        guard confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 else { return false }
        // "glibc 2.36"
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let numbers = text.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) }
        guard let numbers, numbers.count >= 2 else { return false }
        return (numbers[0], numbers[1]) >= (2, 36)
    #else
        return false
    #endif
}

/// The `pixpipe` executable's link on Linux: lld (shipped in the Swift toolchain) with packed relative
/// relocations, and the functions `pixpipe fetch` runs placed together (`scripts/link-order`). Without the
/// first the dynamic loader reads 1.9 MB of `.rela.dyn` (80,000 entries for the statically linked Swift
/// runtime and Foundation) at every start; packed, they take 15 KB. The second makes the code a fetch
/// runs share pages, where it was spread over 17 MB of `.text`. Together, 5.5 MB less at the peak of the
/// 2,000-file fetch of docs/benchmarks.md. Left out where the loader could not read packed relocations.
let pixpipeLinkerSettings: [LinkerSetting] =
    glibcReadsPackedRelocations()
    ? [
        .unsafeFlags(
            [
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link-order/pixpipe.order",
                "-Xlinker", "--no-warn-symbol-ordering",
            ], .when(platforms: [.linux]))
    ] : []

let package = Package(
    name: "Pixpipe",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Pixpipe", targets: ["Pixpipe"]),
        .library(name: "PixpipeImage", targets: ["PixpipeImage"]),
        .library(name: "PixpipeHTTP", targets: ["PixpipeHTTP"]),
        .executable(name: "pixpipe", targets: ["PixpipeCLI"]),
        .executable(name: "pixpipe-examples", targets: ["PixpipeExamples"]),
        .executable(name: "pixpipe-bench", targets: ["PixpipeBench"]),
        .executable(name: "comic-downloader", targets: ["ComicDownloader"]),
    ],
    targets: [
        // System libraries, found through pkg-config; `scripts/bootstrap` installs them, and the packages of a
        // `// test tools: .apt([...])` line inside one: the reference tools its format's tests compare with.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
            // test tools: .apt(["libjpeg-turbo-progs"]): cjpeg, which makes the progressive JPEG fuzz seeds
        ),
        .systemLibrary(
            name: "CLibWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .systemLibrary(
            name: "CLibAVIF",
            pkgConfig: "libavif",
            providers: [.apt(["libavif-dev"]), .brew(["libavif"])]
        ),
        .systemLibrary(
            name: "CLibHEIF",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
            // test tools: .apt(["libheif-examples"]): heif-enc and heif-convert, the HEIF tests' references
        ),
        // FFmpeg's libavcodec: libheif's HEVC images decoded through it (CPixpipeHEIF), libde265 without it.
        .systemLibrary(
            name: "CLibAVCodec",
            pkgConfig: "libavcodec",
            providers: [.apt(["libavcodec-dev"]), .brew(["ffmpeg"])]
        ),
        .systemLibrary(
            name: "CLibJXL",
            pkgConfig: "libjxl",
            providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]
            // test tools: .apt(["libjxl-tools"]): djxl, the JPEG XL conformance tests' reference decoder
        ),
        .systemLibrary(
            name: "CLibTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]
            // test tools: .apt(["libtiff-tools"]): tiffinfo and tiffcp, the TIFF tests' reference readers
        ),
        // OpenSSL's libcrypto (libssl-dev), for SHA-256: the downloader hashes every stored file.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "CLibCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // Little CMS 2, colour management: ICC profiles applied (PixpipeImage's Color/ folder).
        .systemLibrary(
            name: "CLibLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        // libarchive, the tar and zip writers of the downloader's archive outputs (WebDataset shards, CBZ).
        .systemLibrary(
            name: "CLibArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // libdeflate, the whole-buffer inflate of the PNG decoder's fast path (about twice zlib's speed).
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        // giflib has no pkg-config file on Debian: its module map links `gif` by name.
        .systemLibrary(name: "CLibGIF", providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        // A pthread-backed lock for state threads share, used instead of `Synchronization.Mutex` so that
        // ThreadSanitizer sees it (see Sources/PixpipeLocking/Locked.swift). `package` API only.
        .target(name: "PixpipeLocking"),
        // The only C the project writes, all names prefixed `pxp_`, one target per layer under Sources/CPixpipe
        // so that each layer sees and links only its own libraries (`scripts/check-layers` checks it):
        // setjmp guards for libpng and libjpeg; Little CMS's error messages captured; wrappers and constants for libcurl;
        // libavif's functions, loaded on first use; and the system calls Swift's Glibc module hides (syncfs, thread
        // names, malloc arenas), which need no library.
        .target(
            name: "CPixpipeImage", dependencies: ["CLibPNG", "CLibJPEG", "CLibLCMS2"], path: "Sources/CPixpipe/Image"),
        .target(name: "CPixpipeHTTP", dependencies: ["CLibCurl"], path: "Sources/CPixpipe/HTTP"),
        .target(name: "CPixpipeSystem", path: "Sources/CPixpipe/System"),
        // libavif behind `pxp_` wrappers, loaded with dlopen on first use on Linux (so that a process that
        // never meets an AVIF does not load the AV1 codecs behind it); linked as usual elsewhere.
        .target(
            name: "CPixpipeAVIF",
            dependencies: [.target(name: "CLibAVIF", condition: .when(platforms: [.macOS]))],
            path: "Sources/CPixpipe/AVIF",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libheif behind `pxp_heif_` wrappers, loaded with dlopen on first use on Linux (libde265, x265, aom
        // and dav1d behind it are mapped only when a HEIF file is met); linked as usual elsewhere.
        .target(
            name: "CPixpipeHEIF",
            dependencies: [
                .target(name: "CLibHEIF", condition: .when(platforms: [.macOS])),
                .target(name: "CLibAVCodec", condition: .when(platforms: [.macOS])),
            ],
            path: "Sources/CPixpipe/HEIF",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libjxl and libjxl_threads behind `pxp_` wrappers, loaded with dlopen on first use on Linux (so that a
        // process that never meets a JPEG XL file does not load libjxl, libhwy, libbrotli and libstdc++).
        .target(
            name: "CPixpipeJXL",
            dependencies: [.target(name: "CLibJXL", condition: .when(platforms: [.macOS]))],
            path: "Sources/CPixpipe/JXL",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libtiff behind `pxp_` wrappers with per-handle error and warning handlers, loaded with dlopen on
        // first use on Linux (linking it would map 14 more libraries at every start); linked elsewhere.
        .target(
            name: "CPixpipeTIFF",
            dependencies: [.target(name: "CLibTIFF", condition: .when(platforms: [.macOS]))],
            path: "Sources/CPixpipe/TIFF",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libarchive behind `pxp_archive_` wrappers (the downloader's tar and zip writers, gzip lists), loaded with
        // dlopen on first use on Linux (linking it maps libxml2, ICU and 13 more libraries at every start);
        // linked as usual elsewhere. Only the joining layer (Pixpipe) depends on it.
        .target(
            name: "CPixpipeArchive",
            dependencies: [.target(name: "CLibArchive", condition: .when(platforms: [.macOS]))],
            path: "Sources/CPixpipe/Archive",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Pixels and codecs. Knows nothing of HTTP.
        .target(
            name: "PixpipeImage",
            dependencies: [
                "CPixpipeImage", "CLibWebP", "CLibGIF", "CPixpipeAVIF", "CPixpipeHEIF", "CPixpipeJXL", "CPixpipeTIFF",
                "CLibLCMS2", "CLibDeflate", "PixpipeLocking", "CPixpipeSystem",
            ]),
        // Typed requests over a pluggable transport. Knows nothing of images.
        .target(name: "PixpipeHTTP", dependencies: ["CPixpipeHTTP", "CPixpipeSystem", "CLibCurl", "PixpipeLocking"]),
        // The one place that joins images and HTTP.
        .target(
            name: "Pixpipe",
            dependencies: [
                "CPixpipeSystem", "CLibCrypto", "CPixpipeArchive", "PixpipeImage", "PixpipeHTTP", "PixpipeLocking",
            ]),
        .executableTarget(
            name: "PixpipeCLI", dependencies: ["Pixpipe", "PixpipeLocking", "CPixpipeSystem"],
            linkerSettings: pixpipeLinkerSettings),
        // Writes the built-in example images for `scripts/demo`; a compiled example of the API.
        .executableTarget(name: "PixpipeExamples", dependencies: ["Pixpipe"], path: "Samples/Examples"),
        // Times the in-process operations for `scripts/bench` (build with `-c release`).
        // The pipeline rows (issue 19) load through `ImagePipeline` from the in-process test server.
        .executableTarget(
            name: "PixpipeBench", dependencies: ["PixpipeImage", "PixpipeLocking", "Pixpipe", "PixpipeTestSupport"]),
        // Reads an xkcd-shaped comic API and downloads thumbnails of its images; `--make-site` writes Samples/site.
        .executableTarget(name: "ComicDownloader", dependencies: ["Pixpipe"], path: "Samples/ComicDownloader"),
        // libFuzzer targets, one entry point each. `scripts/fuzz` builds them with `--sanitize=fuzzer` and
        // `-DPIXPIPE_FUZZING`; a normal build gives each a `main` that runs the files it is given instead.
        // FuzzSupport's `FuzzTarget` supplies both around each target's own `fuzz(_:)`.
        .target(name: "FuzzSupport", path: "Sources/Fuzz/FuzzSupport"),
        .executableTarget(
            name: "FuzzDecode", dependencies: ["PixpipeImage", "FuzzSupport"], path: "Sources/Fuzz/FuzzDecode"),
        .executableTarget(
            name: "FuzzEXIF", dependencies: ["PixpipeImage", "FuzzSupport"], path: "Sources/Fuzz/FuzzEXIF"),
        .executableTarget(
            name: "FuzzJPEGScaled", dependencies: ["PixpipeImage", "FuzzSupport"],
            path: "Sources/Fuzz/FuzzJPEGScaled"),
        .executableTarget(
            name: "FuzzJSONKeyPath", dependencies: ["PixpipeHTTP", "FuzzSupport"],
            path: "Sources/Fuzz/FuzzJSONKeyPath"),
        .executableTarget(
            name: "FuzzFrames", dependencies: ["PixpipeImage", "FuzzSupport"], path: "Sources/Fuzz/FuzzFrames"),
        .executableTarget(
            name: "FuzzThumbnail", dependencies: ["PixpipeImage", "FuzzSupport"], path: "Sources/Fuzz/FuzzThumbnail"),
        // One codec of the table per run, named by `PIXPIPE_FUZZ_FORMAT` (inputs of other formats are dropped);
        // `scripts/fuzz` runs it once per decodable format. CodecFuzzing is its body.
        .target(name: "FuzzCodecSupport", dependencies: ["PixpipeImage"], path: "Sources/Fuzz/FuzzCodecSupport"),
        .executableTarget(
            name: "FuzzCodec", dependencies: ["PixpipeImage", "FuzzSupport", "FuzzCodecSupport"],
            path: "Sources/Fuzz/FuzzCodec"),
        .executableTarget(
            name: "FuzzURLList", dependencies: ["Pixpipe", "FuzzSupport"], path: "Sources/Fuzz/FuzzURLList"),
        .executableTarget(
            name: "FuzzManifest", dependencies: ["Pixpipe", "FuzzSupport"], path: "Sources/Fuzz/FuzzManifest"),
        // Test servers on 127.0.0.1: an in-process HTTP/1.1 server, and nginx with TLS and HTTP/2.
        .target(name: "PixpipeTestSupport", dependencies: ["PixpipeLocking"]),
        // Test tools run as child processes: the hostile server of `scripts/soak`, and a request loop whose
        // peak memory the CLI tests measure.
        .executableTarget(
            name: "PixpipeSoakServer", dependencies: ["PixpipeTestSupport", "PixpipeImage", "PixpipeLocking"]),
        .executableTarget(name: "PixpipeRequestLoop", dependencies: ["PixpipeHTTP"]),
        // Fills or hammers a `DataCache` folder, for the tests that kill it mid-write or run two at once.
        .executableTarget(name: "PixpipeCacheWorker", dependencies: ["Pixpipe", "PixpipeTestSupport"]),
        // CLibAVIF: the premultiplied-alpha tests write a file with libavif directly (the encoder has no such option);
        // CLibCrypto: the corpora's sample digests (SHA-256), so the image tests link the image layer alone.
        .testTarget(
            name: "PixpipeImageTests",
            dependencies: ["PixpipeImage", "PixpipeTestSupport", "CLibAVIF", "CLibLCMS2", "CLibCrypto"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PixpipeHTTPTests",
            dependencies: ["PixpipeHTTP", "PixpipeTestSupport", "PixpipeLocking", "CLibCurl"]
        ),
        .testTarget(
            name: "PixpipeCLITests",
            dependencies: [
                "PixpipeCLI", "PixpipeRequestLoop", "ComicDownloader", "Pixpipe", "PixpipeTestSupport",
                "PixpipeLocking",
            ]),
        .testTarget(name: "PixpipeTestSupportTests", dependencies: ["PixpipeTestSupport"]),
        .testTarget(name: "PixpipeLockingTests", dependencies: ["PixpipeLocking"]),
        .testTarget(
            name: "PixpipeDownloadTests", dependencies: ["Pixpipe", "PixpipeTestSupport", "PixpipeLocking"]),
        .testTarget(name: "PixpipeURLListTests", dependencies: ["Pixpipe", "PixpipeTestSupport"]),
        // The joining module's own files: `Request<Image>` and `HTTPClient.image(for:)` over a real socket.
        .testTarget(name: "PixpipeTests", dependencies: ["Pixpipe", "PixpipeTestSupport"]),
        .testTarget(
            name: "PixpipePipelineTests",
            dependencies: ["Pixpipe", "PixpipeHTTP", "PixpipeTestSupport", "PixpipeLocking", "PixpipeCacheWorker"]),
    ],
    swiftLanguageModes: [.v6]
)
