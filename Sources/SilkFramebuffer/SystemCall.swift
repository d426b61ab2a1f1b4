// The one path by which SilkFramebuffer's kernel wrappers call into the kernel: retry EINTR, turn
// -1 into a typed error that names the call (as SilkRunLoop's own helper does).
import Glibc
import SilkRunLoop

/// Calls `body` until it returns something other than -1 with `errno == EINTR`; any other -1
/// becomes a `SystemCallError` naming `call`.
@inline(__always)
func systemCall<Result: BinaryInteger>(
    _ call: @autoclosure () -> String, _ body: () -> Result
) throws(SystemCallError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemCallError(call: call(), errno: code)
    }
}

/// The name of the group owning `path` (for "add the user to group …" hints), if it has one.
func groupName(owning path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    var group = Glibc.group()
    var result: UnsafeMutablePointer<Glibc.group>?
    var buffer = [CChar](repeating: 0, count: 1024)
    guard getgrgid_r(st.st_gid, &group, &buffer, buffer.count, &result) == 0, result != nil,
          let name = group.gr_name else { return nil }
    return String(cString: name)
}
