import SilkGeometry
import SilkRaster

/// `silk snapshot image --image PATH`: decodes any file (PNG, JPEG; SVG drawn as vectors) and draws it aspect-fit on a neutral
/// checkerboard (so transparency shows), at device pixels. Errors name the file.
public enum ImageScene {
    public static func render(path: String, size: Size, scale: Double) throws -> Bitmap {
        let pixel = (width: Int((size.width * scale).rounded(.up)), height: Int((size.height * scale).rounded(.up)))
        // SVG (by content, not name) is drawn as vectors at the snapshot's scale; other files decode.
        let svg = SVGImage.isSVG(path: path) ? try SVGImage(contentsOf: path) : nil
        // Lottie (a JSON object, by content): its first frame, rendered at the snapshot's pixels.
        let lottie = svg == nil && LottieAnimation.isLottie(path: path) ? try LottieAnimation(contentsOf: path) : nil
        let decoded = svg == nil && lottie == nil ? try ImageDecoder.decode(contentsOf: path, targetSize: pixel) : nil
        let bitmap = try Bitmap(size: size, scale: scale)
        let c = Canvas(bitmap: bitmap, scale: scale)
        c.fill(Rect(size: size), with: .color(Color(white: 0.92)))
        let tile = 12.0
        var y = 0.0
        while y < size.height {
            var x = ((y / tile).rounded(.down).truncatingRemainder(dividingBy: 2)) * tile
            while x < size.width {
                c.fill(Rect(x: x, y: y, width: tile, height: tile), with: .color(Color(white: 0.82)))
                x += 2 * tile
            }
            y += tile
        }
        if let svg { try svg.draw(in: c, rect: Rect(size: size), contentMode: .aspectFit) }
        if let lottie { try lottie.draw(frame: 0, in: c, rect: Rect(size: size), contentMode: .aspectFit) }
        if let decoded { c.draw(decoded.bitmap, in: Rect(size: size), contentMode: .aspectFit, filter: .highQuality) }
        return bitmap
    }
}
