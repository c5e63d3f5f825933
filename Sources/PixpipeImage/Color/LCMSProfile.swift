import CLibLCMS2
import CPixpipeImage

/// An open Little CMS profile, closed when released. Used on one thread at a time, briefly: to read a
/// profile's facts or build a transform (a built transform no longer needs its profiles).
final class LCMSProfile {
    /// The lcms2 handle.
    let handle: cmsHPROFILE

    /// Takes ownership of an open `handle`.
    init(owning handle: cmsHPROFILE) {
        self.handle = handle
    }

    /// Parses ICC bytes; a profile lcms2 refuses is ``ImageProcessingError/invalidColorProfile(reason:)``.
    convenience init(iccData: [UInt8]) throws(ImageProcessingError) {
        guard !iccData.isEmpty, iccData.count <= Int(UInt32.max) else {
            throw .invalidColorProfile(reason: "profile is empty or over 4 GB")
        }
        let opened = LCMS.call {
            iccData.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        }
        guard let handle = opened.result else {
            throw .invalidColorProfile(reason: opened.message ?? "Little CMS could not read the profile")
        }
        self.init(owning: handle)
    }

    deinit { cmsCloseProfile(handle) }

    /// The profile's colour space.
    var colorSpace: ColorProfile.Space {
        switch cmsGetColorSpace(handle) {
        case cmsSigRgbData: .rgb
        case cmsSigGrayData: .gray
        case cmsSigCmykData: .cmyk
        case cmsSigLabData: .lab
        default: .other
        }
    }

    /// The description tag in English, or an empty string.
    var profileDescription: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        guard count > 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The serialized profile.
    func iccData() -> [UInt8] {
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(handle, nil, &size) != 0, size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(handle, $0.baseAddress, &size) }
        return saved != 0 ? bytes : []
    }

    /// The tone curve stored under `tag`, if the profile has one.
    func toneCurve(_ tag: cmsTagSignature) -> OpaquePointer? {
        cmsReadTag(handle, tag).map { OpaquePointer($0) }
    }

    /// The XYZ value stored under `tag` (a colorant or the white point), if the profile has one.
    func xyz(_ tag: cmsTagSignature) -> cmsCIEXYZ? {
        cmsReadTag(handle, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
    }
}

/// Little CMS calls with its error message captured (see `pixpipe_lcms.h`).
enum LCMS {
    /// Runs `body` with this thread's lcms2 message cleared, and returns its result with the message it left.
    static func call<T>(_ body: () -> T) -> (result: T, message: String?) {
        pxp_lcms_install_error_handler()
        pxp_lcms_clear_error()
        let result = body()
        return (result, pxp_lcms_last_error().map { String(cString: $0) })
    }
}
