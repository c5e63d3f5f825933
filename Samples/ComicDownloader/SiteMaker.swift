import Foundation
import Pixpipe

/// Makes a small comic site in a folder: panels drawn procedurally, in PNG, JPEG, an animated GIF and WebP,
/// and their JSON.
///
/// The layout is xkcd's: `DIR/info.0.json` for the latest comic, `DIR/N/info.0.json` for comic N, and the
/// images under `DIR/comics/`. Image paths are site paths (`/comics/1.png`), resolved against the base URL.
/// Like a real archive it has a hole: comic ``hole`` has no JSON (xkcd has no comic 404), so a reader
/// must report it and go on.
enum SiteMaker {
    /// How a comic's image is stored.
    enum Kind {
        /// A PNG panel.
        case png
        /// A JPEG panel.
        case jpeg
        /// An animated GIF: the sun crosses the sky in a few frames.
        case animatedGIF
        /// A lossy WebP panel.
        case webp

        /// The file extension.
        var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            case .animatedGIF: "gif"
            case .webp: "webp"
            }
        }
    }

    /// The comics of the site by number: PNG and JPEG in turn, then one animated GIF and one WebP, the hole,
    /// and the latest.
    static let comics: [(number: Int, title: String, kind: Kind)] = [
        (1, "Sunrise", .png), (2, "Stripes", .jpeg), (3, "Rings", .png), (4, "Checkers", .jpeg), (5, "Waves", .png),
        (6, "Night", .jpeg), (7, "Sunset", .animatedGIF), (8, "Dusk", .webp), (10, "Moonrise", .png),
    ]

    /// The number with no comic: its JSON answers 404.
    static let hole = 9

    /// How many frames the animated comic has.
    static let animationFrames = 4
    /// How long each frame of the animated comic is shown, in hundredths of a second.
    static let animationDelayCentiseconds = 40

    /// Writes the site into `directory`.
    static func make(in directory: URL) throws {
        let comicsFolder = directory.appendingPathComponent("comics")
        try FileManager.default.createDirectory(at: comicsFolder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let latest = comics.map(\.number).max() ?? 0
        for comic in comics {
            let number = comic.number
            let fileName = "\(number).\(comic.kind.fileExtension)"
            try image(number: number, kind: comic.kind).write(to: comicsFolder.appendingPathComponent(fileName))
            let record = Comic(
                num: number, title: comic.title, img: "/comics/\(fileName)",
                alt: "Panel \(number): \(comic.title.lowercased()).")
            let json = try encoder.encode(record)
            let comicFolder = directory.appendingPathComponent("\(number)")
            try FileManager.default.createDirectory(at: comicFolder, withIntermediateDirectories: true)
            try json.write(to: comicFolder.appendingPathComponent("info.0.json"))
            if number == latest { try json.write(to: directory.appendingPathComponent("info.0.json")) }
        }
    }

    /// The encoded image of comic `number`.
    static func image(number: Int, kind: Kind) throws -> Data {
        let panel = drawPanel(number: number, width: 320, height: 200)
        switch kind {
        case .png: return try panel.encoded(as: .png)
        case .jpeg: return try panel.encoded(as: .jpeg(quality: 80))
        case .webp: return try panel.encoded(as: .webp(quality: 80))
        case .animatedGIF:
            let frames = (0..<animationFrames).map { drawPanel(number: number, width: 320, height: 200, frame: $0) }
            return Data(AnimatedGIF.encode(frames, delayCentiseconds: animationDelayCentiseconds))
        }
    }

    /// A panel: a sky gradient, a sun, and a pattern that differs per comic so each image is distinct.
    /// `frame` moves the sun, for the frames of an animation.
    static func drawPanel(number: Int, width: Int, height: Int, frame: Int = 0) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .rgb8)
        let sunX = Double(width) * (0.2 + 0.12 * Double((number + frame) % 6))
        let sunY = Double(height) * 0.35
        for y in 0..<height {
            for x in 0..<width {
                let v = Double(y) / Double(height)
                var colour = [Int(80 + 120 * v), Int(140 + 80 * v), 230 - number * 20]
                let dx = Double(x) - sunX
                let dy = Double(y) - sunY
                if (dx * dx + dy * dy).squareRoot() < 28 { colour = [250, 210, 60] }
                if y > height * 3 / 4, ((x / (8 + number * 2)) + (y / 10)) % 2 == 0 {
                    colour = [60, 130 - number * 10, 50]
                }
                for channel in 0..<3 { image[x: x, y: y, channel: channel] = max(0, min(255, colour[channel])) }
            }
        }
        return image
    }
}
