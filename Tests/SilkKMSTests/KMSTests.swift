import CSilkLinux
import Foundation
import Glibc
import Testing
@testable import SilkKMS
@testable import SilkFramebuffer
import SilkInput

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

/// Seats, hotplug and VT-switch keys: the pure decisions, and libseat itself through its `noop`
/// backend (no daemon: it opens devices with open(2) and is enabled at once).
@Suite struct KMSSeatAndHotplugTests {
    @Test func seatBackendsFollowWhatRuns() {
        func backends(_ policy: SeatPolicy, _ env: [String: String], _ files: Set<String>) -> [String] {
            LibSeat.backendsToTry(policy: policy, environment: env, fileExists: { files.contains($0) })
        }
        #expect(backends(.auto, [:], []) == [])
        #expect(backends(.auto, [:], ["/run/seatd.sock"]) == ["seatd"])
        #expect(backends(.auto, ["SEATD_SOCK": "/tmp/s.sock"], ["/run/seatd.sock"]) == [])
        #expect(backends(.auto, ["SEATD_SOCK": "/tmp/s.sock"], ["/tmp/s.sock"]) == ["seatd"])
        // logind only for a process in a login session (a stale /run/systemd/seats is not enough).
        #expect(backends(.auto, [:], ["/run/systemd/seats"]) == [])
        #expect(backends(.libseat, ["XDG_SESSION_ID": "3"], ["/run/seatd.sock", "/run/systemd/seats"]) == ["seatd", "logind"])
        #expect(backends(.auto, ["LIBSEAT_BACKEND": "logind"], []) == ["logind"])
        #expect(backends(.direct, ["LIBSEAT_BACKEND": "seatd"], ["/run/seatd.sock"]) == [])
    }

    @Test func libseatOpensAndClosesDevicesThroughItsNoopBackend() throws {
        let seat = try LibSeat(backends: ["noop"])
        #expect(seat.seatDescription.hasPrefix("noop "))
        #expect(seat.eventFD >= 0)
        let fd = try seat.openDevice("/dev/null")
        #expect(fd >= 0)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        seat.closeDevice(fd: fd)
        #expect(fcntl(fd, F_GETFD) == -1)   // closed
        // libseat 0.7 (bookworm) reports nothing here; 0.8 and later (trixie's 0.9.1) deliver the
        // noop seat's enable at the first dispatch. Either way nothing else, and never a disable.
        let changes = seat.dispatch()
        #expect(changes.isEmpty || changes == [.enabled], "\(changes)")
        // A backend that is not there: one error naming it.
        #expect(throws: KMSError.self) { try LibSeat(backends: ["no-such-backend"]) }
    }

    @Test func theCardIsRefusedByNameThroughASeatToo() throws {
        var o = KMSOptions()
        o.seat = try LibSeat(backends: ["noop"])
        o.devicePath = "/dev/null"
        do { _ = try KMSPresenter(options: o); Issue.record("/dev/null accepted") } catch {
            #expect(error.kind == .notADRMDevice("a character device that does not answer DRM_IOCTL_VERSION"))
        }
        o.devicePath = "/tmp"
        do { _ = try KMSPresenter(options: o); Issue.record("/tmp accepted") } catch {
            #expect(error.kind == .notADRMDevice("it is a directory"))
        }
    }

    static let current = KMSMode(width: 1024, height: 768, refresh: 60, preferred: true)

    @Test func aLostConnectorFailsOrWaits() {
        let modes = [Self.current, KMSMode(width: 800, height: 600, refresh: 60, preferred: false)]
        typealias A = KMSPresenter.HotplugAction
        func act(_ connected: Bool, _ modes: [KMSMode], waiting: Bool, wait: Bool) -> A {
            KMSPresenter.hotplugAction(connected: connected, modes: modes, current: Self.current, waiting: waiting, waitForDisplay: wait)
        }
        #expect(act(true, modes, waiting: false, wait: false) == .none)
        #expect(act(false, [], waiting: false, wait: false) == .fail)
        #expect(act(false, [], waiting: false, wait: true) == .startWaiting)
        #expect(act(false, [], waiting: true, wait: true) == .keepWaiting)
        #expect(act(true, modes, waiting: true, wait: true) == .resume(Self.current))
        // Back at 59.94 Hz: still the mode in use (within 1 Hz).
        let ntsc = KMSMode(width: 1024, height: 768, refresh: 59.94, preferred: true)
        #expect(act(true, [ntsc], waiting: true, wait: true) == .resume(ntsc))
        // Another display without the mode in use: an error listing its modes.
        #expect(act(true, [modes[1]], waiting: true, wait: true) == .failModeGone("800x600@60.00"))
        #expect(KMSPresenter.isWaitableAbsence(.noConnectedConnector("x")))
        #expect(KMSPresenter.isWaitableAbsence(.connectorUnavailable(requested: "HDMI-A-1", available: "")))
        #expect(!KMSPresenter.isWaitableAbsence(.missing))
        #expect(!KMSPresenter.isWaitableAbsence(.modeUnavailable(requested: "1x1", available: "")))
    }

    @Test func ctrlAltFunctionKeysSwitchVTs() {
        func target(_ key: Key, _ mods: KeyModifiers = [], repeat r: Bool = false) -> Int? {
            FramebufferSession.vtSwitchTarget(InputEvent(.keyDown(key, isRepeat: r), timestamp: 0, modifiers: mods))
        }
        #expect(target(.keysym(0x1008_FE02)) == 2)      // XF86Switch_VT_2 (xkb's Ctrl+Alt+F2)
        #expect(target(.keysym(0x1008_FE0C)) == 12)
        #expect(target(.keysym(0x1008_FE0D)) == nil)
        #expect(target(.function(3), [.control, .alt]) == 3)
        #expect(target(.function(3), [.control]) == nil)
        #expect(target(.function(3), [.control, .alt], repeat: true) == nil)
        #expect(target(.character("a"), [.control, .alt]) == nil)
    }
}

/// `--rotate` on KMS: the primary plane's `rotation` property (a bitmask) where it offers the
/// turn, else software rotation. The drivers in the VM (bochs-drm) have no such property, so the
/// plane path is covered here only.
@Suite struct KMSPlaneRotationTests {
    @Test func bitmaskEntriesAreBitNumbers() {
        // vc4's primary plane: rotate-0, rotate-180, reflect-x, reflect-y (bits 0, 2, 4, 5).
        let vc4 = PlaneRotations(bitmaskEntries: [("rotate-0", 0), ("rotate-180", 2), ("reflect-x", 4), ("reflect-y", 5)])
        #expect(vc4 == [.rotate0, .rotate180, .reflectX, .reflectY])
        #expect(vc4.description == "rotate-0, rotate-180, reflect-x, reflect-y")
        #expect(PlaneRotations(bitmaskEntries: [("bogus", 64), ("rotate-0", 0)]) == .rotate0)
        #expect(PlaneRotations(bitmaskEntries: []).description == "none")
    }

    @Test func drmTurnsCounterClockwise() {
        #expect(PlaneRotations.drmBit(for: .clockwise90) == .rotate270)
        #expect(PlaneRotations.drmBit(for: .clockwise270) == .rotate90)
        #expect(PlaneRotations.drmBit(for: .upsideDown) == .rotate180)
        #expect(PlaneRotations.drmBit(for: .none) == .rotate0)
    }

    @Test func theChoice() {
        let all: PlaneRotations = [.rotate0, .rotate90, .rotate180, .rotate270]
        let vc4: PlaneRotations = [.rotate0, .rotate180, .reflectX, .reflectY]
        #expect(RotationPath.choose(.none, offered: all) == .none)
        #expect(RotationPath.choose(.upsideDown, offered: vc4) == .plane(.rotate180))
        #expect(RotationPath.choose(.upsideDown, offered: all) == .plane(.rotate180))
        #expect(RotationPath.choose(.upsideDown, offered: nil) == .software("the primary plane has no rotation property"))
        #expect(RotationPath.choose(.upsideDown, offered: .rotate0) == .software("the primary plane offers only rotate-0"))
        // 90/270 need transposed buffers: software even where the plane offers the bit.
        guard case let .software(why) = RotationPath.choose(.clockwise90, offered: all) else { Issue.record("90° by the plane"); return }
        #expect(why.contains("transposed"))
        #expect(RotationPath.choose(.clockwise270, offered: vc4) == .software("the primary plane offers only rotate-0, rotate-180, reflect-x, reflect-y"))
        #expect(RotationPath.choose(.clockwise90, offered: nil).logLine(.clockwise90) == "kms: rotation 90°: in software (the primary plane has no rotation property)")
        #expect(RotationPath.plane(.rotate180).logLine(.upsideDown) == "kms: rotation 180°: by the primary plane (rotate-180)")
    }
}
