import CSilkLinux
import Glibc
import SilkSystem

/// A sealed, close-on-exec memfd mapped read-write: the memory behind a `wl_shm_pool`.
///
/// `memfd_create(MFD_CLOEXEC | MFD_ALLOW_SEALING)`, `ftruncate`, then `F_SEAL_SHRINK |
/// F_SEAL_SEAL`: the compositor maps the same file, and a client that could shrink it would make
/// the compositor fault (SIGBUS) on read — the seal promises it never will. The descriptor is
/// close-on-exec so it does not leak into child processes. Unmapped and closed in `deinit`.
final class SharedMemory {
    let fd: Int32
    let size: Int
    let address: UnsafeMutableRawPointer

    init(size: Int, name: String = "silk-wl-shm") throws(WaylandError) {
        precondition(size > 0)
        let fd: Int32
        do throws(SystemCallError) {
            fd = try systemCall("memfd_create(\(name))") { silk_memfd_create(name) }
        } catch { throw WaylandError(error) }
        do throws(WaylandError) {
            do throws(SystemCallError) {
                _ = try systemCall("ftruncate(memfd, \(size))") { ftruncate(fd, off_t(size)) }
                _ = try systemCall("fcntl(F_ADD_SEALS)") { silk_memfd_seal_shrink(fd) }
            } catch { throw WaylandError(error) }
            guard let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
                throw WaylandError.system("mmap(memfd, \(size))")
            }
            address = p
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        self.size = size
    }

    /// The seals in force (`fcntl(F_GET_SEALS)`), for tests.
    var seals: Int32 { silk_memfd_get_seals(fd) }

    deinit {
        munmap(address, size)
        close(fd)
    }
}
