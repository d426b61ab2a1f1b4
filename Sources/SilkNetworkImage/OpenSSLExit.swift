import CCrypto

/// Keeps OpenSSL's global state alive through `exit()`.
///
/// By default OpenSSL registers `OPENSSL_cleanup` with `atexit` when it first initializes, and
/// that cleanup frees OpenSSL's global locks. libcurl (`HTTPClient`'s thread) keeps using
/// them on its own threads while `exit()` runs the handlers:
/// a download in flight when the process ends (SIGTERM to a kiosk showing the photo wall)
/// crashed inside `CRYPTO_THREAD_read_lock` about once in a hundred exits. Initializing OpenSSL
/// first with `OPENSSL_INIT_NO_ATEXIT` skips that registration; the process's memory goes back
/// to the system on exit anyway.
///
/// Called before Silk first uses libcurl (`ImageDownloader`, the feed demo's model), which is
/// what initializes OpenSSL. A no-op after the first call; any thread.
public enum OpenSSLExit {
    private static let once: Bool = {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    }()

    /// Initializes OpenSSL without its exit-time cleanup; true when OpenSSL accepted it.
    @discardableResult
    public static func keepStateAtExit() -> Bool { once }
}
