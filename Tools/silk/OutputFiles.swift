import ArgumentParser
import Foundation
import SilkRaster

// Every file the `silk` command writes goes through `FileOutput` (SilkRaster): a temporary
// sibling renamed into place for regular files, in place for character devices and FIFOs with a
// reader, refused otherwise. A full disk never leaves a truncated file or destroys the previous
// good one, and /dev/null stays a device node.

/// Writes `data` to `path` atomically; errors name the path and the reason in one line.
func writeOutput(_ data: Data, to path: String) throws(RasterError) {
    try FileOutput.write(data, to: path)
}

/// Fails with one line and exit 2, before any work, when `path` (an output option) cannot be
/// written later. `option` names the flag in the message.
func checkOutputPath(_ path: String, option: String? = nil) throws(ValidationError) {
    do { try FileOutput.checkWritable(path) } catch {
        throw ValidationError((option.map { "\($0) " } ?? "") + error.description)
    }
}
