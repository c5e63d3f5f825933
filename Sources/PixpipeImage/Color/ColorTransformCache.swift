import PixpipeLocking

/// Parsed profiles and built transforms, shared by every conversion in the process, so a folder of photos
/// from one camera parses its profile once and builds one transform.
///
/// Keyed by the profile bytes themselves (hashing a few kilobytes per image is nothing next to decoding
/// it, and equal keys are exactly equal profiles), the pixel formats, the intent and the flags.
package enum ColorTransformCache {
    /// What identifies a transform.
    struct Key: Hashable {
        let source: [UInt8]
        let target: [UInt8]
        let inputFormat: UInt32
        let outputFormat: UInt32
        let intent: RenderingIntent
        let blackPointCompensation: Bool
    }

    /// The cached state.
    private struct State {
        var profiles: [[UInt8]: ColorProfile] = [:]
        var transforms: [Key: ColorTransform] = [:]
        var transformsBuilt = 0
        var builtPerSource: [[UInt8]: Int] = [:]
    }

    /// Entries kept of each kind; past it the kind is emptied (a process meets few profiles, so this only
    /// bounds memory against a stream of distinct ones).
    static let capacity = 64

    private static let state = Locked(State())

    /// How many transforms were built since the process started.
    package static var transformsBuilt: Int { state.withLock { $0.transformsBuilt } }

    /// How many transforms were built from the profile `source` (ICC bytes), for tests running in parallel
    /// with others.
    package static func transformsBuilt(fromProfile source: [UInt8]) -> Int {
        state.withLock { $0.builtPerSource[source] ?? 0 }
    }

    /// The parsed profile of `iccData`, parsed once.
    static func profile(_ iccData: [UInt8]) throws(ImageProcessingError) -> ColorProfile {
        if let known = state.withLock({ $0.profiles[iccData] }) { return known }
        let parsed = try ColorProfile(iccData: iccData)
        state.withLock { state in
            if state.profiles.count >= capacity { state.profiles.removeAll() }
            state.profiles[iccData] = parsed
        }
        return parsed
    }

    /// The transform from `source` to `target` for these formats, built once.
    static func transform(
        from source: ColorProfile, format inputFormat: LCMSPixelType, to target: ColorProfile,
        format outputFormat: LCMSPixelType, options: ColorConversionOptions
    ) throws(ImageProcessingError) -> ColorTransform {
        let key = Key(
            source: source.iccData, target: target.iccData, inputFormat: inputFormat.code,
            outputFormat: outputFormat.code, intent: options.intent,
            blackPointCompensation: options.blackPointCompensation)
        // Built under the lock: threads converting the first images of one folder at once would otherwise
        // each build the same transform. Building takes about a millisecond and runs no caller code.
        return try state.withLock { (state) throws(ImageProcessingError) -> ColorTransform in
            if let known = state.transforms[key] { return known }
            let transform = try ColorTransform(
                from: LCMSProfile(iccData: source.iccData), format: inputFormat,
                to: LCMSProfile(iccData: target.iccData), format: outputFormat, intent: options.intent,
                blackPointCompensation: options.blackPointCompensation)
            if state.transforms.count >= capacity { state.transforms.removeAll() }
            state.transforms[key] = transform
            state.transformsBuilt += 1
            if state.builtPerSource.count >= capacity * 4 { state.builtPerSource.removeAll() }
            state.builtPerSource[source.iccData, default: 0] += 1
            return transform
        }
    }
}
