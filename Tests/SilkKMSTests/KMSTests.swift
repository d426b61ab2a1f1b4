import CSilkLinux
import Foundation
import Glibc
import Testing
@testable import SilkKMS

/// The KMS presenter's pieces that need no DRM device: `--mode` parsing, choosing a mode, card
/// discovery and the errors for paths that are not DRM cards. The presenter itself is tested end
/// to end on QEMU's bochs-drm (Tests/e2e/fbdev.sh, case kms-bochs).
@Suite struct KMSTests {
    @Test func modeRequestsParse() throws {
        #expect(KMSModeRequest("1024x768") == KMSModeRequest(width: 1024, height: 768))
        #expect(KMSModeRequest("1920X1080@59.94") == KMSModeRequest(width: 1920, height: 1080, refresh: 59.94))
        #expect(KMSModeRequest("800x600@60")?.description == "800x600@60")
        for bad in ["", "1024", "1024x", "x768", "0x768", "1024x-1", "99999x10", "1024x768@", "1024x768@0",
                    "1024x768@-60", "1024x768@nan", "1024x768@inf", "1024x768@60@60", "axb"] {
            #expect(KMSModeRequest(bad) == nil, "\(bad)")
        }
    }

    static let modes = [
        KMSMode(width: 1920, height: 1080, refresh: 60, preferred: false),
        KMSMode(width: 1024, height: 768, refresh: 75.03, preferred: false),
        KMSMode(width: 1024, height: 768, refresh: 60.0, preferred: true),
        KMSMode(width: 800, height: 600, refresh: 60.32, preferred: false),
    ]

    @Test func thePreferredModeIsTheDefault() {
        #expect(KMSCard.chooseMode(Self.modes, request: nil) == Self.modes[2])
        #expect(KMSCard.chooseMode([Self.modes[3], Self.modes[0]], request: nil) == Self.modes[3])  // none preferred: the first
        #expect(KMSCard.chooseMode([], request: nil) == nil)
    }

    @Test func aRequestedSizeAndRateFindTheClosestMode() {
        #expect(KMSCard.chooseMode(Self.modes, request: KMSModeRequest("1024x768")) == Self.modes[2])
        #expect(KMSCard.chooseMode(Self.modes, request: KMSModeRequest("1024x768@75")) == Self.modes[1])
        #expect(KMSCard.chooseMode(Self.modes, request: KMSModeRequest("800x600@60")) == Self.modes[3])
        #expect(KMSCard.chooseMode(Self.modes, request: KMSModeRequest("1024x768@50")) == nil)
        #expect(KMSCard.chooseMode(Self.modes, request: KMSModeRequest("640x480")) == nil)
        #expect(KMSCard.describe(Self.modes).contains("1024x768@60.00 (preferred)"))
    }

    @Test func cardsAreFoundInNumberOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silk-kms-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for n in ["card10", "card2", "renderD128", "cardX", "card0"] { FileManager.default.createFile(atPath: "\(dir)/\(n)", contents: nil) }
        #expect(KMSCard.candidatePaths(directory: dir) == ["\(dir)/card0", "\(dir)/card2", "\(dir)/card10"])
        #expect(KMSCard.candidatePaths(directory: dir + "/none").isEmpty)
    }

    @Test func pathsThatAreNotDRMCardsAreRefusedByName() throws {
        func kind(_ path: String) -> KMSError.Kind? {
            var o = KMSOptions()
            o.devicePath = path
            do { _ = try KMSPresenter(options: o); return nil } catch { return error.kind }
        }
        #expect(kind("/dev/dri/card97") == .missing)
        #expect(kind("/dev/null") == .notADRMDevice("a character device that does not answer DRM_IOCTL_VERSION"))
        #expect(kind("/tmp") == .notADRMDevice("it is a directory"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("silk-kms-file-\(getpid())").path
        FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8))
        defer { unlink(file) }
        #expect(kind(file) == .notADRMDevice("it is a regular file"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")  // never written
        let e = KMSError(device: "/dev/null", kind: .notADRMDevice("x"))
        #expect(e.isBadInput && e.description.hasPrefix("/dev/null is not a DRM/KMS device"))
        #expect(!KMSError(device: "/dev/dri/card0", kind: .disconnected("HDMI-A-1")).isBadInput)
        #expect(KMSError(device: "/dev/dri/card0", kind: .permissionDenied(group: "video")).description.contains("add the user to the 'video' group"))
        #expect(KMSError(device: "/dev/dri/card0", kind: .permissionDenied(group: "root")).description.contains("belongs to group root: run as root"))
    }

    @Test func theDisplayGuardRefusesBadArgumentsAndRestoresOnce() {
        var many = [UInt32](repeating: 1, count: 9)
        #expect(silk_display_guard_arm(-1, 1, 0, 0, 0, &many, 9, nil, 0) == -1)
        var one: [UInt32] = [1]
        var mode = [UInt8](repeating: 0, count: 10)
        #expect(silk_display_guard_arm(-1, 1, 0, 0, 0, &one, 1, &mode, 10) == -1)  // not a drm_mode_modeinfo
        #expect(silk_display_guard_restore() == 1)                                  // nothing armed
        // Armed on a descriptor that is not a card: the ioctl fails (EBADF), once.
        #expect(silk_display_guard_arm(-1, 1, 0, 0, 0, &one, 0, nil, 0) == 0)
        #expect(silk_display_guard_restore() == -1)
        #expect(silk_display_guard_restore() == 1)
    }
}
