import SilkGeometry
import SilkRaster

/// `silk snapshot card`: one card of the Texture tutorial's rainforest app, drawn with Canvas
/// (the nodes issue rebuilds it from nodes): a blurred, tinted and saturated copy of the photo
/// as the backdrop, the sharp photo on the top two thirds, a gradient over the photo's bottom so
/// the white title reads, the title, and the description wrapped below.
public enum CardScene {
    public static let defaultSize = Size(width: 360, height: 420)

    /// The tutorial's blur: radius 30, tint white at 30 %... of grey 0.5, saturation ×1.8.
    public static let blurRadius = 30.0
    public static let blurTint = Color(white: 0.5, alpha: 0.3)
    public static let blurSaturation = 1.8

    public static func render(size: Size = defaultSize, scale: Double = 1,
                              entry: RainforestEntry = RainforestCatalog.entries[0]) throws -> Bitmap {
        guard let path = entry.photoPath else {
            throw SceneError("card: photo \(entry.photo) not found (is assets/ next to the binary, or SILK_ASSETS set?)")
        }
        let bitmap = try Bitmap(size: size, scale: scale)
        let canvas = Canvas(bitmap: bitmap, scale: scale)
        let pixel = (width: Int((size.width * scale).rounded(.up)), height: Int((size.height * scale).rounded(.up)))
        let photo = try ImageDecoder.decode(contentsOf: path, targetSize: pixel).bitmap
        let bounds = Rect(size: size)
        let radius = 8.0

        // Backdrop: the photo aspect-filled to the card at device pixels, then blurred.
        let backdrop = try Bitmap(width: pixel.width, height: pixel.height)
        Canvas(bitmap: backdrop).draw(photo, in: backdrop.bounds, contentMode: .aspectFill, filter: .highQuality)
        let blurred = try backdrop.blurred(radius: blurRadius * scale, tintColor: blurTint,
                                           saturationDeltaFactor: blurSaturation)
        canvas.draw(blurred, in: bounds, imageScale: scale, cornerRadius: radius)

        // Feature photo on the top two thirds, with a scrim over its lower half.
        let photoRect = Rect(x: 0, y: 0, width: size.width, height: (size.height * 2 / 3).rounded())
        canvas.withSavedState {
            canvas.clip(to: photoRect)
            // Rounded top corners only: the rect extends below the clip by the radius.
            let rounded = Rect(x: 0, y: 0, width: photoRect.width, height: photoRect.height + radius)
            canvas.draw(photo, in: rounded, contentMode: .aspectFill, filter: .highQuality, cornerRadius: radius)
        }
        let scrim = Rect(x: 0, y: photoRect.midY, width: photoRect.width, height: photoRect.height / 2)
        canvas.fill(scrim, with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: scrim.minY), end: Point(x: 0, y: scrim.maxY),
            stops: [GradientStop(0, .clear), GradientStop(1, Color(white: 0, alpha: 0.75))])))

        // Title on the scrim, description below the photo.
        let inset = 16.0
        let titleAttrs = TextAttributes(fontSize: 26, fontWeight: .bold, color: .white)
        let title = TextLayout(text: AttributedText(entry.title, attributes: titleAttrs),
                               constrainedTo: Size(width: size.width - 2 * inset, height: .infinity), maximumLines: 2)
        canvas.draw(title, at: Point(x: inset, y: photoRect.maxY - inset - title.size.height))

        let bodyAttrs = TextAttributes(fontSize: 14, color: .white, lineHeightMultiple: 1.15)
        let bodyTop = photoRect.maxY + 12
        let body = TextLayout(text: AttributedText(entry.description, attributes: bodyAttrs),
                              constrainedTo: Size(width: size.width - 2 * inset, height: size.height - bodyTop - 12))
        canvas.draw(body, at: Point(x: inset, y: bodyTop))
        return bitmap
    }
}
