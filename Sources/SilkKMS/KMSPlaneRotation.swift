// The primary plane's `rotation` property (a DRM bitmask: rotate-0/90/180/270, reflect-x/y) and
// the choice between it and Silk's software rotation for `--rotate`. Pure values: `KMSAtomic`
// reads the property's enum entries from the driver, the unit tests give them directly.
import SilkFramebuffer

/// The rotations a plane offers (DRM_MODE_ROTATE_* / DRM_MODE_REFLECT_* bits). DRM turns the
/// picture counter-clockwise: `rotate90` shows what Silk calls a clockwise 270° turn.
public struct PlaneRotations: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let rotate0 = PlaneRotations(rawValue: 1 << 0)
    public static let rotate90 = PlaneRotations(rawValue: 1 << 1)
    public static let rotate180 = PlaneRotations(rawValue: 1 << 2)
    public static let rotate270 = PlaneRotations(rawValue: 1 << 3)
    public static let reflectX = PlaneRotations(rawValue: 1 << 4)
    public static let reflectY = PlaneRotations(rawValue: 1 << 5)

    /// The bits of a bitmask property's enum entries (`drm_mode_property_enum`: each entry's
    /// value is a bit number, not a mask). Bit numbers past 63 are ignored.
    public init(bitmaskEntries: [(name: String, value: UInt64)]) {
        var bits: UInt64 = 0
        for e in bitmaskEntries where e.value < 64 { bits |= 1 << e.value }
        self.init(rawValue: bits)
    }

    /// The DRM bit showing Silk's clockwise `rotation` (DRM counts counter-clockwise).
    public static func drmBit(for rotation: Rotation) -> PlaneRotations {
        switch rotation {
        case .none: return .rotate0
        case .clockwise90: return .rotate270
        case .upsideDown: return .rotate180
        case .clockwise270: return .rotate90
        }
    }

    /// "rotate-0, rotate-180, reflect-x", as the kernel names them.
    public var description: String {
        let names: [(PlaneRotations, String)] = [(.rotate0, "rotate-0"), (.rotate90, "rotate-90"), (.rotate180, "rotate-180"),
                                                 (.rotate270, "rotate-270"), (.reflectX, "reflect-x"), (.reflectY, "reflect-y")]
        let known = names.filter { contains($0.0) }.map(\.1)
        return known.isEmpty ? "none" : known.joined(separator: ", ")
    }
}

/// Which path turns the picture for `--rotate`.
public enum RotationPath: Sendable, Equatable {
    /// No rotation asked for.
    case none
    /// The primary plane scans the buffer out turned (its `rotation` property set to this bit).
    case plane(PlaneRotations)
    /// Silk's `PixelConverter` turns the picture while copying into the buffers; why.
    case software(String)

    /// Plane rotation where the plane offers the turn and the buffers keep their shape: 180° only.
    /// A 90° or 270° plane rotation needs a framebuffer of the transposed size, which most
    /// drivers scan out rotated only from tiled layouts (i915 refuses linear buffers; vc4 offers
    /// no 90/270 at all) — Silk's buffers are linear dumb buffers, so those turns stay in software.
    /// `offered`: the plane's rotations, nil when it has no `rotation` property (or no atomic).
    public static func choose(_ rotation: Rotation, offered: PlaneRotations?) -> RotationPath {
        guard rotation != .none else { return .none }
        guard let offered else { return .software("the primary plane has no rotation property") }
        let bit = PlaneRotations.drmBit(for: rotation)
        if rotation == .upsideDown {
            return offered.contains(bit) ? .plane(bit) : .software("the primary plane offers only \(offered)")
        }
        if offered.contains(bit) {
            return .software("the primary plane offers \(offered), but a \(rotation.rawValue)° turn needs a transposed, usually tiled, framebuffer and Silk's dumb buffers are linear")
        }
        return .software("the primary plane offers only \(offered)")
    }

    /// One line for the log: which path turns the picture.
    public func logLine(_ rotation: Rotation) -> String {
        switch self {
        case .none: return "kms: no rotation"
        case let .plane(bit): return "kms: rotation \(rotation.rawValue)°: by the primary plane (\(bit))"
        case let .software(why): return "kms: rotation \(rotation.rawValue)°: in software (\(why))"
        }
    }
}
