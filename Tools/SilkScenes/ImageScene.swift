import SilkGeometry
import SilkRaster

/// `silk snapshot image --image PATH`: decodes any file and draws it aspect-fit on a neutral
/// checkerboard (so transparency shows), at device pixels. Errors name the file.
public enum ImageScene {
    public static func render(path: String, size: Size, scale: Double) throws -> Bitmap {
        let pixel = (width: Int((size.width * scale).rounded(.up)), height: Int((size.height * scale).rounded(.up)))
        let decoded = try ImageDecoder.decode(contentsOf: path, targetSize: pixel)
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
        c.draw(decoded.bitmap, in: Rect(size: size), contentMode: .aspectFit, filter: .highQuality)
        return bitmap
    }
}
