import Testing

@testable import Pixpipe

/// The collision fingerprint computed over bytes against the fingerprint of the collision key's text.
@Suite("Name collision fingerprints")
struct CollisionFingerprintTests {
    @Test(
        "The fingerprint is the SHA-256 prefix of the collision key, for plain, mixed-case and other names",
        arguments: [
            ("{name}", "photo"), ("{name}", "Photo.JPG"), ("{name}", "ÉTÉ"), ("{name}", "straße"),
            ("{name}", "İstanbul"), ("{name}", ""), ("{index}-{name}", "A_b~C"), ("{host}/{name}", "x"),
            ("{sha256}", "ignored"), ("{name}-{sha256}.{ext}", "Mixed-Case"), ("{name}.bin", "[ZZ]@^`{"),
            ("{name}", "日本"),
        ])
    func matchesKeyText(template: String, name: String) {
        let pattern = FileNamePattern(template: template, index: 41, name: name, host: "Example.COM")
        #expect(pattern.collisionFingerprint == SHA256.prefix64(ofUTF8: pattern.collisionKey))
        let suffixed = pattern.suffixed(7)
        #expect(suffixed.collisionFingerprint == SHA256.prefix64(ofUTF8: suffixed.collisionKey))
        let plain = FileNamePattern(plainStem: name.isEmpty ? "n" : name)
        #expect(plain.collisionFingerprint == SHA256.prefix64(ofUTF8: plain.collisionKey))
    }
}
