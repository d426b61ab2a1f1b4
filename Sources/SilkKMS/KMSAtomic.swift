// Atomic modesetting (DRM_CLIENT_CAP_ATOMIC): the connector, CRTC and primary plane are set in one
// commit, validated first with a test-only commit; page flips are non-blocking atomic commits of
// the plane's FB_ID with DRM_MODE_PAGE_FLIP_EVENT, whose completion arrives as the same
// flip-complete event the legacy drmModePageFlip sends (read by the presenter's flip thread).
import CDRM
import Glibc
import SilkSystem

/// Which modesetting interface the presenter uses (`--kms-api`).
public enum KMSAPI: String, Sendable, CaseIterable {
    /// Atomic where the driver offers it, else legacy.
    case auto
    /// Atomic, or an error when the driver does not offer it.
    case atomic
    /// `drmModeSetCrtc` and `drmModePageFlip`, which every KMS driver supports.
    case legacy
}

/// The objects and property IDs of one atomic display pipeline (connector → CRTC ← primary plane).
struct KMSAtomic {
    let connectorID: UInt32
    let crtcID: UInt32
    let planeID: UInt32
    let width: Int
    let height: Int
    private var modeBlob: UInt32 = 0
    private let connectorCRTC: UInt32
    private let crtcMode: UInt32, crtcActive: UInt32
    private let planeFB: UInt32, planeCRTC: UInt32
    private let srcX: UInt32, srcY: UInt32, srcW: UInt32, srcH: UInt32
    private let dstX: UInt32, dstY: UInt32, dstW: UInt32, dstH: UInt32
    /// The primary plane's `rotation` property and the turns it offers (nil: the plane has none).
    private let rotationProperty: UInt32?
    let offeredRotations: PlaneRotations?
    /// The turn `modeset` sets on the plane (`.plane` of `RotationPath`); nil leaves the property alone.
    var planeRotation: PlaneRotations?

    /// The pipeline for `crtcID` (index `crtcIndex`) driving `connectorID`, or why there is none
    /// (no atomic support, no primary plane, a property missing). Turns the atomic client cap on.
    static func setUp(fd: Int32, crtcID: UInt32, crtcIndex: Int, connectorID: UInt32,
                      width: Int, height: Int) -> Result<KMSAtomic, AtomicUnavailable> {
        if drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) != 0 {
            return .failure(AtomicUnavailable(reason: "the driver does not offer atomic modesetting (\(SystemCallError(call: "drmSetClientCap(ATOMIC)", errno: errno)))"))
        }
        guard let planes = drmModeGetPlaneResources(fd) else {
            return .failure(AtomicUnavailable(reason: "no plane list (\(SystemCallError(call: "drmModeGetPlaneResources", errno: errno)))"))
        }
        defer { drmModeFreePlaneResources(planes) }
        var primary: UInt32?
        for i in 0..<Int(planes.pointee.count_planes) {
            let id = planes.pointee.planes[i]
            guard let p = drmModeGetPlane(fd, id) else { continue }
            let possible = p.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0
            let current = p.pointee.crtc_id
            drmModeFreePlane(p)
            guard possible, properties(fd: fd, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE))["type"]?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) else { continue }
            if primary == nil || current == crtcID { primary = id }
        }
        guard let planeID = primary else { return .failure(AtomicUnavailable(reason: "no primary plane for CRTC \(crtcID)")) }
        let conn = properties(fd: fd, object: connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        let crtc = properties(fd: fd, object: crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC))
        let plane = properties(fd: fd, object: planeID, type: UInt32(DRM_MODE_OBJECT_PLANE))
        func id(_ table: [String: (id: UInt32, value: UInt64)], _ name: String) throws(AtomicUnavailable) -> UInt32 {
            guard let p = table[name] else { throw AtomicUnavailable(reason: "property \(name) missing") }
            return p.id
        }
        // `rotation` is a bitmask property: its enum entries name the bits the plane offers.
        var offered: PlaneRotations?
        if let r = plane["rotation"] { offered = rotations(fd: fd, property: r.id) }
        do {
            return .success(KMSAtomic(rotationProperty: plane["rotation"]?.id, offeredRotations: offered,
                connectorID: connectorID, crtcID: crtcID, planeID: planeID, width: width, height: height,
                connectorCRTC: try id(conn, "CRTC_ID"), crtcMode: try id(crtc, "MODE_ID"), crtcActive: try id(crtc, "ACTIVE"),
                planeFB: try id(plane, "FB_ID"), planeCRTC: try id(plane, "CRTC_ID"),
                srcX: try id(plane, "SRC_X"), srcY: try id(plane, "SRC_Y"), srcW: try id(plane, "SRC_W"), srcH: try id(plane, "SRC_H"),
                dstX: try id(plane, "CRTC_X"), dstY: try id(plane, "CRTC_Y"), dstW: try id(plane, "CRTC_W"), dstH: try id(plane, "CRTC_H")))
        } catch { return .failure(error) }
    }

    private init(rotationProperty: UInt32?, offeredRotations: PlaneRotations?, connectorID: UInt32, crtcID: UInt32, planeID: UInt32, width: Int, height: Int, connectorCRTC: UInt32,
                 crtcMode: UInt32, crtcActive: UInt32, planeFB: UInt32, planeCRTC: UInt32, srcX: UInt32, srcY: UInt32,
                 srcW: UInt32, srcH: UInt32, dstX: UInt32, dstY: UInt32, dstW: UInt32, dstH: UInt32) {
        self.rotationProperty = rotationProperty; self.offeredRotations = offeredRotations
        self.connectorID = connectorID; self.crtcID = crtcID; self.planeID = planeID; self.width = width; self.height = height
        self.connectorCRTC = connectorCRTC; self.crtcMode = crtcMode; self.crtcActive = crtcActive
        self.planeFB = planeFB; self.planeCRTC = planeCRTC
        self.srcX = srcX; self.srcY = srcY; self.srcW = srcW; self.srcH = srcH
        self.dstX = dstX; self.dstY = dstY; self.dstW = dstW; self.dstH = dstH
    }

    /// Sets `mode` with framebuffer `fb` shown: a test-only commit first, then the real one
    /// (blocking, ALLOW_MODESET). Returns 0, else the errno of the commit that failed.
    mutating func modeset(fd: Int32, mode: drmModeModeInfo, fb: UInt32) -> SystemCallError? {
        var m = mode
        var blob: UInt32 = 0
        if drmModeCreatePropertyBlob(fd, &m, MemoryLayout<drmModeModeInfo>.size, &blob) != 0 {
            return SystemCallError(call: "drmModeCreatePropertyBlob(mode)", errno: errno)
        }
        guard let req = drmModeAtomicAlloc() else { _ = drmModeDestroyPropertyBlob(fd, blob); return SystemCallError(call: "drmModeAtomicAlloc", errno: ENOMEM) }
        defer { drmModeAtomicFree(req) }
        _ = drmModeAtomicAddProperty(req, connectorID, connectorCRTC, UInt64(crtcID))
        _ = drmModeAtomicAddProperty(req, crtcID, crtcMode, UInt64(blob))
        _ = drmModeAtomicAddProperty(req, crtcID, crtcActive, 1)
        addPlane(req, fb: fb)
        _ = drmModeAtomicAddProperty(req, planeID, planeCRTC, UInt64(crtcID))
        _ = drmModeAtomicAddProperty(req, planeID, srcX, 0)
        _ = drmModeAtomicAddProperty(req, planeID, srcY, 0)
        _ = drmModeAtomicAddProperty(req, planeID, srcW, UInt64(width) << 16)
        _ = drmModeAtomicAddProperty(req, planeID, srcH, UInt64(height) << 16)
        _ = drmModeAtomicAddProperty(req, planeID, dstX, 0)
        _ = drmModeAtomicAddProperty(req, planeID, dstY, 0)
        _ = drmModeAtomicAddProperty(req, planeID, dstW, UInt64(width))
        _ = drmModeAtomicAddProperty(req, planeID, dstH, UInt64(height))
        if let planeRotation, let rotationProperty { _ = drmModeAtomicAddProperty(req, planeID, rotationProperty, planeRotation.rawValue) }
        let flags = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
        if drmModeAtomicCommit(fd, req, flags | UInt32(DRM_MODE_ATOMIC_TEST_ONLY), nil) != 0 {
            let e = SystemCallError(call: "drmModeAtomicCommit(TEST_ONLY)", errno: errno)
            _ = drmModeDestroyPropertyBlob(fd, blob)
            return e
        }
        if drmModeAtomicCommit(fd, req, flags, nil) != 0 {
            let e = SystemCallError(call: "drmModeAtomicCommit(modeset)", errno: errno)
            _ = drmModeDestroyPropertyBlob(fd, blob)
            return e
        }
        if modeBlob != 0 { _ = drmModeDestroyPropertyBlob(fd, modeBlob) }
        modeBlob = blob
        return nil
    }

    /// Queues `fb` on the primary plane at the next vblank (non-blocking; the flip-complete event
    /// carries `userData`). Returns 0 or -1 with errno set, as drmModePageFlip does.
    func flip(fd: Int32, fb: UInt32, userData: UnsafeMutableRawPointer) -> Int32 {
        guard let req = drmModeAtomicAlloc() else { errno = ENOMEM; return -1 }
        defer { drmModeAtomicFree(req) }
        addPlane(req, fb: fb)
        return drmModeAtomicCommit(fd, req, UInt32(DRM_MODE_ATOMIC_NONBLOCK) | UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
    }

    private func addPlane(_ req: drmModeAtomicReqPtr, fb: UInt32) {
        _ = drmModeAtomicAddProperty(req, planeID, planeFB, UInt64(fb))
    }

    /// Puts the plane's rotation back to rotate-0 (before the console's framebuffer returns: a
    /// legacy SETCRTC leaves the property as it is). Blocking; errors are ignored (best effort).
    func resetRotation(fd: Int32) {
        guard planeRotation != nil, let rotationProperty, let req = drmModeAtomicAlloc() else { return }
        defer { drmModeAtomicFree(req) }
        _ = drmModeAtomicAddProperty(req, planeID, rotationProperty, PlaneRotations.rotate0.rawValue)
        _ = drmModeAtomicCommit(fd, req, 0, nil)
    }

    /// The bits a bitmask property's enum entries name (`drmModeGetProperty`).
    static func rotations(fd: Int32, property: UInt32) -> PlaneRotations? {
        guard let p = drmModeGetProperty(fd, property) else { return nil }
        defer { drmModeFreeProperty(p) }
        guard p.pointee.flags & UInt32(DRM_MODE_PROP_BITMASK) != 0 else { return nil }
        var entries: [(name: String, value: UInt64)] = []
        for i in 0..<Int(p.pointee.count_enums) {
            let e = p.pointee.enums[i]
            let name = withUnsafeBytes(of: e.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            entries.append((name, e.value))
        }
        return PlaneRotations(bitmaskEntries: entries)
    }

    /// Frees the mode blob.
    func destroy(fd: Int32) { if modeBlob != 0 { _ = drmModeDestroyPropertyBlob(fd, modeBlob) } }

    /// An object's properties by name: their IDs and current values.
    static func properties(fd: Int32, object: UInt32, type: UInt32) -> [String: (id: UInt32, value: UInt64)] {
        guard let props = drmModeObjectGetProperties(fd, object, type) else { return [:] }
        defer { drmModeFreeObjectProperties(props) }
        var out: [String: (id: UInt32, value: UInt64)] = [:]
        for i in 0..<Int(props.pointee.count_props) {
            guard let p = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            let name = withUnsafeBytes(of: p.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            out[name] = (p.pointee.prop_id, props.pointee.prop_values[i])
            drmModeFreeProperty(p)
        }
        return out
    }
}

/// Why atomic modesetting cannot be used on a card.
struct AtomicUnavailable: Error {
    let reason: String
}
