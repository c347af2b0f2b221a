import FoundationEssentials
import Glibc
import HeraldCore

/// Ed25519 signatures (RFC 8032), from nettle's `libhogweed`, loaded on first use.
///
/// Every Debian system has libhogweed (GnuTLS needs it), so Herald links nothing for it: a
/// check without a public key configured loads no crypto at all, and one with a key loads
/// the library once, when the first signature is checked.
package enum Ed25519 {
    /// A private key's length: the 32-byte seed, as Sparkle exports it.
    package static let seedLength = 32

    /// Whether `signature` is `publicKey`'s over exactly `message`.
    package static func isValid(signature: Data, of message: Data, publicKey: Data) throws(FeedSignatureProblem) -> Bool {
        guard signature.count == FeedSignature.signatureLength else { return false }
        guard publicKey.count == FeedSignature.publicKeyLength else { throw .badPublicKey }
        let verify = try library().verify
        return publicKey.withUnsafeBytes { key in
            withMessage(message) { bytes, count in
                signature.withUnsafeBytes { signed in
                    verify(key.bindMemory(to: UInt8.self).baseAddress!, count, bytes, signed.bindMemory(to: UInt8.self).baseAddress!) == 1
                }
            }
        }
    }

    /// The public key of a private key (its 32-byte seed).
    package static func publicKey(seed: Data) throws(FeedSignatureProblem) -> Data {
        guard seed.count == seedLength else { throw .malformed("a private key is \(seedLength) bytes, this one is \(seed.count)") }
        let derive = try library().publicKey
        var key = Data(count: FeedSignature.publicKeyLength)
        key.withUnsafeMutableBytes { out in
            seed.withUnsafeBytes { seed in derive(out.bindMemory(to: UInt8.self).baseAddress!, seed.bindMemory(to: UInt8.self).baseAddress!) }
        }
        return key
    }

    /// Signs `message` with a private key (its 32-byte seed).
    package static func sign(_ message: Data, seed: Data) throws(FeedSignatureProblem) -> Data {
        let key = try publicKey(seed: seed)
        let sign = try library().sign
        var signature = Data(count: FeedSignature.signatureLength)
        signature.withUnsafeMutableBytes { out in
            key.withUnsafeBytes { key in
                seed.withUnsafeBytes { seed in
                    withMessage(message) { bytes, count in
                        sign(key.bindMemory(to: UInt8.self).baseAddress!, seed.bindMemory(to: UInt8.self).baseAddress!, count,
                             bytes, out.bindMemory(to: UInt8.self).baseAddress!)
                    }
                }
            }
        }
        return signature
    }

    /// A new private key: 32 bytes from the kernel's random source.
    package static func newSeed() throws(FeedSignatureProblem) -> Data {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unavailable("cannot read /dev/urandom: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var seed = Data(count: seedLength)
        let filled = seed.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, seedLength) }
        guard filled == seedLength else { throw .unavailable("too few random bytes from /dev/urandom") }
        return seed
    }

    /// The message's bytes and count; an empty message still gets a valid pointer.
    private static func withMessage<R>(_ message: Data, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        if message.isEmpty { return [UInt8(0)].withUnsafeBufferPointer { body($0.baseAddress!, 0) } }
        return message.withUnsafeBytes { body($0.bindMemory(to: UInt8.self).baseAddress!, $0.count) }
    }

    // MARK: - nettle

    private typealias Verify = @convention(c) (UnsafePointer<UInt8>, Int, UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Int32
    private typealias PublicKey = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafePointer<UInt8>) -> Void
    private typealias Sign = @convention(c) (UnsafePointer<UInt8>, UnsafePointer<UInt8>, Int, UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void

    private struct Functions: Sendable {
        let verify: Verify
        let publicKey: PublicKey
        let sign: Sign
    }

    private static let loaded: Result<Functions, FeedSignatureProblem> = {
        let name = "libhogweed.so.6"
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.unavailable("\(name) could not be loaded: \(dlerror().map { String(cString: $0) } ?? "unknown reason")"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let verify = symbol("nettle_ed25519_sha512_verify", as: Verify.self),
              let publicKey = symbol("nettle_ed25519_sha512_public_key", as: PublicKey.self),
              let sign = symbol("nettle_ed25519_sha512_sign", as: Sign.self)
        else { return .failure(.unavailable("\(name) has no Ed25519 functions")) }
        return .success(Functions(verify: verify, publicKey: publicKey, sign: sign))
    }()

    private static func library() throws(FeedSignatureProblem) -> Functions {
        try loaded.get()
    }
}
