import Foundation
import Pixpipe

/// Makes a small comic site in a folder: panels drawn procedurally, in PNG and JPEG, and their JSON.
///
/// The layout is xkcd's: `DIR/info.0.json` for the latest comic, `DIR/N/info.0.json` for comic N, and the
/// images under `DIR/comics/`. Image paths are site paths (`/comics/1.png`), resolved against the base URL.
enum SiteMaker {
    /// The comics of the site.
    static let titles = ["Sunrise", "Stripes", "Rings", "Checkers", "Waves", "Night"]

    /// Writes the site into `directory`.
    static func make(in directory: URL) throws {
        let comicsFolder = directory.appendingPathComponent("comics")
        try FileManager.default.createDirectory(at: comicsFolder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for (offset, title) in titles.enumerated() {
            let number = offset + 1
            let usesPNG = number % 2 == 1
            let fileName = "\(number).\(usesPNG ? "png" : "jpg")"
            let panel = drawPanel(number: number, width: 320, height: 200)
            let data = try panel.encoded(as: usesPNG ? .png : .jpeg(quality: 80))
            try data.write(to: comicsFolder.appendingPathComponent(fileName))
            let comic = Comic(
                num: number, title: title, img: "/comics/\(fileName)", alt: "Panel \(number): \(title.lowercased()).")
            let json = try encoder.encode(comic)
            let comicFolder = directory.appendingPathComponent("\(number)")
            try FileManager.default.createDirectory(at: comicFolder, withIntermediateDirectories: true)
            try json.write(to: comicFolder.appendingPathComponent("info.0.json"))
            if number == titles.count { try json.write(to: directory.appendingPathComponent("info.0.json")) }
        }
    }

    /// A panel: a sky gradient, a sun, and a pattern that differs per comic so each image is distinct.
    static func drawPanel(number: Int, width: Int, height: Int) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .rgb8)
        let sunX = Double(width) * (0.2 + 0.12 * Double(number % 6))
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
