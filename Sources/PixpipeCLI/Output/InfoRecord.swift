import Pixpipe

/// What `pixpipe info` reports about one image: a JSON Lines record, or one human-readable line.
struct InfoRecord: Encodable, Sendable, Hashable {
    /// The path as given on the command line (`-` for standard input).
    let path: String
    /// The format's identifier (`png`, `jpeg`, ...).
    let format: String
    /// Stored width in pixels (before the clean-aperture crop and the orientation).
    let width: Int
    /// Stored height in pixels (before the clean-aperture crop and the orientation).
    let height: Int
    /// Channels a default decode produces (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA).
    let channels: Int
    /// The pixel format a default decode produces, such as `rgba8` or `gray16`.
    let pixelFormat: String
    /// The colour model the file stores (`cmyk` for a CMYK JPEG), when the header says; `pixelFormat` is
    /// what decoding gives.
    let storedColorModel: String?
    /// The components the file stores per pixel (4 for CMYK), when the header says.
    let storedComponents: Int?
    /// Bits per sample in the file (1, 2, 4, 8, 12 or 16).
    let bitDepth: Int
    /// Whether the image has an alpha channel.
    let alpha: Bool
    /// Adam7 interlacing (PNG) or progressive coding (JPEG).
    let interlaced: Bool
    /// The EXIF orientation, 1 to 8 (1 when the file has none).
    let orientation: Int
    /// The size of the embedded ICC profile in bytes; 0 when there is none.
    let iccProfileBytes: Int
    /// The embedded profile's description (`Display P3`), when it has one Little CMS can read.
    let iccDescription: String?
    /// The embedded profile's colour space (`rgb`, `gray`, `cmyk`, `lab`, `other`), when Little CMS can read it.
    let iccColorSpace: String?
    /// Whether the embedded profile describes sRGB (converting to sRGB changes nothing), when it can be read.
    let iccIsSRGB: Bool?
    /// The PNG `gAMA` value, when present.
    let gamma: Double?
    /// The physical resolution, when the file states one.
    let dotsPerInch: ImageMetadata.Resolution?
    /// The part of the stored pixels shown (AVIF `clap`), cut before the orientation; absent when all are.
    let cleanAperture: PixelRect?
    /// How many frames the file holds (1 for a still image).
    let frames: Int
    /// How many times an animation plays (0 = forever); absent for still images.
    let loopCount: Int?
    /// An animation's total duration in milliseconds, when its header gives it; absent for still images.
    let durationMs: Int?
    /// How many separate images the file holds at the top level (HEIF images, TIFF pages); 1 for others.
    let images: Int
    /// The thumbnails and depth maps stored beside the primary image; absent when there are none.
    let auxiliaryImages: [AuxiliaryImage]?
    /// Every top-level image (a TIFF's pages) in file order, the first being the one described above;
    /// absent when the file holds one.
    let pages: [Page]?
    /// The warnings a full decode would give that the header already shows, as `code: message`; absent
    /// when there are none. What only the pixel data holds (see the command's help) is not seen.
    let warnings: [String]?

    /// The record of `info` read from `path`.
    init(path: String, info: ImageInfo) {
        self.path = path
        format = info.format.rawValue
        width = info.width
        height = info.height
        channels = info.pixelFormat.channels
        pixelFormat = info.pixelFormat.description
        storedColorModel = info.storedColorModel?.rawValue
        storedComponents = info.storedComponents
        bitDepth = info.metadata.sourceBitDepth ?? info.pixelFormat.bitsPerSample
        alpha = info.pixelFormat.layout.hasAlpha
        interlaced = info.metadata.isInterlaced
        orientation = info.metadata.orientation.rawValue
        iccProfileBytes = info.metadata.iccProfile?.count ?? 0
        // A profile Little CMS refuses is reported by its size alone: info reads, it does not judge.
        let profile = info.metadata.iccProfile.flatMap { try? ColorProfile(iccData: $0) }
        iccDescription = profile.flatMap { $0.profileDescription.isEmpty ? nil : $0.profileDescription }
        iccColorSpace = profile?.colorSpace.rawValue
        iccIsSRGB = profile?.isSRGB
        gamma = info.metadata.gamma
        dotsPerInch = info.metadata.dotsPerInch
        cleanAperture = info.metadata.cleanAperture
        frames = info.animation?.frameCount ?? 1
        loopCount = info.animation?.loopCount
        durationMs = info.animation?.duration.map { Int(($0 / .milliseconds(1)).rounded()) }
        images = info.imageCount
        auxiliaryImages = info.auxiliaryImages.isEmpty ? nil : info.auxiliaryImages
        pages =
            info.pages.count > 1
            ? info.pages.map { Page(width: $0.width, height: $0.height, pixelFormat: $0.pixelFormat.description) } : nil
        warnings = info.metadata.warnings.isEmpty ? nil : info.metadata.warnings.map(\.codeAndMessage)
    }

    /// One line for people, such as
    /// `photo.jpg: jpeg 1800x1200 rgb8, 8-bit, progressive, orientation 6 (rotate 90° clockwise), ICC 3144 bytes`.
    var humanLine: String {
        var parts = ["\(format) \(width)x\(height) \(pixelFormat)", "\(bitDepth)-bit"]
        // What the file holds, where decoding turns it into something else (CMYK into RGB).
        if let storedColorModel, ["cmyk", "ycck"].contains(storedColorModel) {
            parts[0] += " (stored \(storedColorModel), \(storedComponents ?? 4) components)"
        }
        switch (format, interlaced) {
        case ("jpeg", true): parts.append("progressive")
        case ("jpeg", false): parts.append("baseline")
        case (_, true): parts.append("interlaced")
        case (_, false): parts.append("not interlaced")
        }
        parts.append("orientation \(orientation) (\(Self.orientationMeaning(orientation)))")
        if let cleanAperture {
            parts.append(
                "clean aperture \(cleanAperture.width)x\(cleanAperture.height) at \(cleanAperture.x),\(cleanAperture.y)"
            )
        }
        if iccProfileBytes > 0 {
            let facts = [iccDescription.map { "'\($0)'" }, iccColorSpace].compactMap { $0 }
            parts.append("ICC \(iccProfileBytes) bytes" + (facts.isEmpty ? "" : " (\(facts.joined(separator: " ")))"))
        } else {
            parts.append("no ICC")
        }
        if let gamma { parts.append("gamma \(gamma)") }
        if let dotsPerInch { parts.append("\(Self.decimal(dotsPerInch.x))x\(Self.decimal(dotsPerInch.y)) dpi") }
        if frames > 1 {
            let loops = loopCount.map { $0 == 0 ? "looping forever" : "playing \($0) times" } ?? ""
            let length = durationMs.map { ", \(Self.decimal(Double($0) / 1000)) s" } ?? ""
            parts.append("\(frames) frames\(length)" + (loops.isEmpty ? "" : ", \(loops)"))
        }
        if images > 1 { parts.append("\(images) images") }
        for auxiliary in auxiliaryImages ?? [] {
            parts.append("\(auxiliary.kind.rawValue) \(auxiliary.width)x\(auxiliary.height)")
        }
        if let warnings { parts.append("warnings: " + warnings.joined(separator: "; ")) }
        return "\(path): " + parts.joined(separator: ", ")
    }

    /// One line for each page after the first, numbered from 0 as `--frame` takes them: `scan.tif: page 1: 200x150 gray8`.
    var pageLines: [String] {
        (pages ?? []).enumerated().dropFirst().map { index, page in
            "\(path): page \(index): \(page.width)x\(page.height) \(page.pixelFormat)"
        }
    }

    /// One top-level image's size and the pixel format a default decode of it produces.
    struct Page: Encodable, Sendable, Hashable {
        /// Stored width in pixels.
        let width: Int
        /// Stored height in pixels.
        let height: Int
        /// Such as `rgb8` or `gray16`.
        let pixelFormat: String
    }

    private static func orientationMeaning(_ value: Int) -> String {
        switch value {
        case 2: "mirrored"
        case 3: "rotate 180°"
        case 4: "flipped vertically"
        case 5: "transposed"
        case 6: "rotate 90° clockwise"
        case 7: "transversed"
        case 8: "rotate 90° counter-clockwise"
        default: "upright"
        }
    }

    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
