import Foundation

/// The reconstruction filter a resize uses, from softest and fastest to sharpest.
///
/// ```swift
/// let small = try image.resized(width: 320, height: 240, filter: .mitchell)
/// ```
public enum ResizeFilter: String, Sendable, Hashable, CaseIterable, Codable {
    /// Area average: each output pixel is the mean of the source area it covers (exact for integer ratios).
    case box
    /// Linear interpolation (a tent), widened when downscaling.
    case triangle
    /// Mitchell-Netravali cubic (B = C = 1/3): smooth, little ringing.
    case mitchell
    /// Catmull-Rom cubic (B = 0, C = 1/2): sharper than Mitchell.
    case catmullRom
    /// Lanczos with three lobes: the sharpest, the default.
    case lanczos3

    /// How far the kernel reaches on each side, in source pixels at scale 1.
    var support: Double {
        switch self {
        case .box: 0.5
        case .triangle: 1
        case .mitchell, .catmullRom: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's value at distance `t` (in source pixels at scale 1) from the centre.
    func weight(at t: Double) -> Double {
        let distance = abs(t)
        switch self {
        case .box: return t >= -0.5 && t < 0.5 ? 1 : 0
        case .triangle: return max(0, 1 - distance)
        case .mitchell: return Self.cubic(distance, b: 1.0 / 3.0, c: 1.0 / 3.0)
        case .catmullRom: return Self.cubic(distance, b: 0, c: 0.5)
        case .lanczos3:
            guard distance < 3 else { return 0 }
            return Self.sinc(distance) * Self.sinc(distance / 3)
        }
    }

    /// sin(πx) / (πx), 1 at 0.
    static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let angle = Double.pi * x
        return sin(angle) / angle
    }

    /// The Mitchell-Netravali family of cubics at distance `x` >= 0.
    private static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        }
        if x < 2 {
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}
