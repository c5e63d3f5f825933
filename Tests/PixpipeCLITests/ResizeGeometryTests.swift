import Pixpipe
import Testing

@testable import PixpipeCLI

/// The geometry forms `--resize` and `--size` read, and the colours `--background` reads.
@Suite("Resize geometry parser")
struct ResizeGeometryTests {
    @Test(
        "Each ImageMagick form gives its size, mode and direction",
        arguments: [
            ("50%", ThumbnailOptions.Size.scale(0.5), ThumbnailOptions.Mode?.none, ResizeGeometry.Direction.unstated),
            ("400", .width(400), nil, .unstated),
            ("400x", .width(400), nil, .unstated),
            ("x300", .height(300), nil, .unstated),
            ("400x300", .box(width: 400, height: 300), nil, .unstated),
            ("400X300", .box(width: 400, height: 300), nil, .unstated),
            ("400x300!", .box(width: 400, height: 300), .stretch, .unstated),
            ("400x300^", .box(width: 400, height: 300), .fill, .unstated),
            ("400x300>", .box(width: 400, height: 300), nil, .shrinkOnly),
            ("400x300<", .box(width: 400, height: 300), nil, .enlargeOnly),
            ("x300>", .height(300), nil, .shrinkOnly),
        ])
    func forms(
        text: String, size: ThumbnailOptions.Size, mode: ThumbnailOptions.Mode?, direction: ResizeGeometry.Direction
    )
        throws
    {
        let geometry = try #require(ResizeGeometry(text))
        #expect(geometry.size == size)
        #expect(geometry.mode == mode)
        #expect(geometry.direction == direction)
    }

    @Test(
        "Malformed or out-of-range geometries are refused",
        arguments: [
            "", "x", "0x10", "10x0", "-5x5", "400x300x2", "abc", "0%", "-50%", "50x25%", "400!", "x300^", "70000x1",
            "4OOx3OO",
        ])
    func refused(text: String) {
        #expect(ResizeGeometry(text) == nil)
    }

    @Test func enlargingForms() throws {
        #expect(try #require(ResizeGeometry("150%")).enlarges)
        #expect(try #require(ResizeGeometry("10x10!")).enlarges)
        #expect(try #require(ResizeGeometry("10x10<")).enlarges)
        #expect(try !#require(ResizeGeometry("50%")).enlarges)
        #expect(try !#require(ResizeGeometry("10x10")).enlarges)
    }

    @Test func backgroundColours() {
        #expect(BackgroundColor(argument: "white") == BackgroundColor(red: 255, green: 255, blue: 255))
        #expect(BackgroundColor(argument: "Black") == BackgroundColor(red: 0, green: 0, blue: 0))
        #expect(BackgroundColor(argument: "#ff8000") == BackgroundColor(red: 255, green: 128, blue: 0))
        #expect(BackgroundColor(argument: "#FF800080") == BackgroundColor(red: 255, green: 128, blue: 0, alpha: 128))
        for bad in ["#ff80", "#gg0000", "ff8000", "#+f0000", "chartreuse-ish", ""] {
            #expect(BackgroundColor(argument: bad) == nil, "\(bad)")
        }
    }
}
