import Foundation
import SilkGeometry
import SilkRaster

/// `silk snapshot shapes`: every Canvas primitive once, on a grid of labelled cells, so a
/// regression in any of them shows in one golden image.
public enum ShapesScene {
    public static let defaultSize = Size(width: 640, height: 480)

    public static func render(size: Size = defaultSize, scale: Double = 1) throws -> Bitmap {
        let bitmap = try Bitmap(size: size, scale: scale)
        let c = Canvas(bitmap: bitmap, scale: scale)
        c.fill(Rect(size: size), with: .color(Color(rgb: 0xf4f1ea)))
        let cols = 4.0, rows = 3.0
        let cw = size.width / cols, ch = size.height / rows
        var cell = 0
        func next(_ draw: (Rect) -> Void) {
            let col = Double(cell % Int(cols)), row = Double(cell / Int(cols))
            let r = Rect(x: col * cw, y: row * ch, width: cw, height: ch).insetBy(dx: 12, dy: 12)
            c.withSavedState { c.clip(to: Rect(x: col * cw, y: row * ch, width: cw, height: ch)); draw(r) }
            cell += 1
        }
        let teal = Color(rgb: 0x1b998b), coral = Color(rgb: 0xed6a5a), ink = Color(rgb: 0x2d3047)
        // 1. filled rect + 1 px and 3 px strokes
        next { r in
            c.fill(r.insetBy(dx: 10, dy: 10), with: .color(teal))
            c.stroke(r.insetBy(dx: 4, dy: 4), lineWidth: 1, with: .color(ink))
            c.stroke(r.insetBy(dx: 22, dy: 22), lineWidth: 3, with: .color(.white))
        }
        // 2. anti-aliased rounded rect, filled and stroked
        next { r in
            c.fillRoundedRect(r.insetBy(dx: 6, dy: 6), cornerRadius: 22, with: .color(coral))
            c.strokeRoundedRect(r.insetBy(dx: 20, dy: 20), cornerRadius: 12, lineWidth: 4, with: .color(ink))
        }
        // 3. ellipse and circle stroke
        next { r in
            c.fillEllipse(in: r.insetBy(dx: 4, dy: 18), with: .color(Color(rgb: 0xf3c13a)))
            let d = min(r.width, r.height) - 30
            c.strokeEllipse(in: Rect(x: r.midX - d / 2, y: r.midY - d / 2, width: d, height: d), lineWidth: 2.5, with: .color(ink))
        }
        // 4. linear gradient
        next { r in
            c.fillRoundedRect(r, cornerRadius: 10, with: .linearGradient(LinearGradient(
                start: Point(x: r.minX, y: r.minY), end: Point(x: r.maxX, y: r.maxY),
                stops: [GradientStop(0, teal), GradientStop(0.5, Color(rgb: 0xf3c13a)), GradientStop(1, coral)])))
        }
        // 5. radial gradient
        next { r in
            c.fillEllipse(in: r, with: .radialGradient(RadialGradient(
                center: r.center, radius: min(r.width, r.height) / 2,
                stops: [GradientStop(0, .white), GradientStop(1, ink)])))
        }
        // 6. transparent-to-black gradient over a pattern (the card's title scrim)
        next { r in
            for k in 0..<6 {
                c.fill(Rect(x: r.minX + Double(k) * r.width / 6, y: r.minY, width: r.width / 12, height: r.height), with: .color(coral))
            }
            c.fill(r, with: .linearGradient(LinearGradient(start: Point(x: r.midX, y: r.minY), end: Point(x: r.midX, y: r.maxY),
                                                           stops: [GradientStop(0, .clear), GradientStop(1, .black)])))
        }
        // 7. opacity stack: three overlapping translucent discs
        next { r in
            c.withSavedState {
                c.multiplyOpacity(0.6)
                let d = r.height * 0.6
                for (k, col) in [Color.red, .green, .blue].enumerated() {
                    let a = Double(k) * 2.094
                    c.fillEllipse(in: Rect(x: r.midX - d / 2 + cos(a) * d / 4, y: r.midY - d / 2 + sin(a) * d / 4, width: d, height: d), with: .color(col))
                }
            }
        }
        // 8. rotation + scale transform
        next { r in
            c.withSavedState {
                c.translate(x: r.midX, y: r.midY)
                c.rotate(by: .pi / 7)
                c.scale(x: 1.2, y: 0.8)
                c.fillRoundedRect(Rect(x: -40, y: -30, width: 80, height: 60), cornerRadius: 8, with: .color(teal))
                c.stroke(Rect(x: -40, y: -30, width: 80, height: 60), lineWidth: 2, with: .color(ink))
            }
        }
        // 9. lines of several widths and angles
        next { r in
            for k in 0..<8 {
                let a = Double(k) * .pi / 8
                c.strokeLine(from: r.center, to: Point(x: r.midX + cos(a) * r.height / 2, y: r.midY + sin(a) * r.height / 2),
                             width: 0.5 + Double(k) * 0.5, with: .color(ink))
            }
        }
        // 10. clip stack: a disc clipped by two nested rects
        next { r in
            c.withSavedState {
                c.clip(to: Rect(x: r.minX, y: r.minY, width: r.width * 0.75, height: r.height))
                c.withSavedState {
                    c.clip(to: Rect(x: r.minX + r.width * 0.25, y: r.minY, width: r.width, height: r.height * 0.75))
                    c.fillEllipse(in: r, with: .color(coral))
                }
            }
            c.stroke(r, lineWidth: 1, with: .color(ink.withAlpha(0.4)))
        }
        // 11. polygon (a star-shaped convex hexagon) with translucent fill
        next { r in
            let pts = (0..<6).map { k -> Point in
                let a = Double(k) * .pi / 3
                return Point(x: r.midX + cos(a) * r.height / 2, y: r.midY + sin(a) * r.height / 2)
            }
            c.fillPolygon(pts, with: .color(teal.withAlpha(0.5)))
        }
        // 12. hairlines at fractional positions (anti-aliasing)
        next { r in
            for k in 0..<10 {
                let x = r.minX + 6 + Double(k) * 10.25
                c.fill(Rect(x: x, y: r.minY, width: 1, height: r.height), with: .color(ink))
            }
        }
        return bitmap
    }
}
