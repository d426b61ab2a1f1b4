// SHA-256 from the system's libcrypto (OpenSSL's one-shot `SHA256()`), for cache keys: a URL's
// hash names its cache file, so no part of the URL's text ever becomes part of a path.
// Foundation on Linux has no CryptoKit; libcrypto is already on every machine that has libcurl.
import CCrypto

/// SHA-256 (FIPS 180-4) digests, computed by libcrypto.
enum SHA256 {
    /// The 32-byte digest of `message` (`SHA256(3)`).
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        message.withUnsafeBufferPointer { bytes in
            digest.withUnsafeMutableBufferPointer { out in
                // Returns `out` (never NULL when given a buffer); a zero-length message is valid.
                _ = CCrypto.SHA256(bytes.baseAddress, bytes.count, out.baseAddress)
            }
        }
        return digest
    }

    /// Lower-case hex of the digest of `string`'s UTF-8.
    static func hexDigest(_ string: String) -> String {
        hash(Array(string.utf8)).map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }
}
