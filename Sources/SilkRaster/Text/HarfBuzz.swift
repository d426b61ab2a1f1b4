import CHarfBuzz

// Shaping with HarfBuzz: one call per item (a run of one font, script, direction and
// attributes). The whole paragraph is handed to hb_buffer_add_codepoints as context, so Arabic
// joining and other contextual forms continue across item boundaries (a colour change in the
// middle of an Arabic word keeps the letters joined).
//
// Fonts are shaped at one font unit per unit (see FontFace) and scaled to points here, so a
// single immutable hb_font_t serves every size and every thread.

/// One glyph from the shaper, in points. `cluster` is the paragraph-relative scalar index of the
/// first character the glyph belongs to.
struct ShapedGlyph: Sendable {
    var id: UInt32
    var cluster: Int
    var advance: Double
    var dx: Double
    /// Down is positive (HarfBuzz's y offset negated).
    var dy: Double
}

enum Shaper {
    private static let noLigatures: [hb_feature_t] = ["-liga", "-clig", "-dlig"].map { s in
        var f = hb_feature_t()
        _ = hb_feature_from_string(s, -1, &f)
        return f
    }

    /// Shapes `range` of `paragraph` with `face` at `size` points. Glyphs come back in visual
    /// order (right-to-left items reversed, as HarfBuzz returns them); `tracking` points are added
    /// after every cluster.
    static func shape(_ paragraph: UnsafeBufferPointer<UInt32>, range: Range<Int>, face: FontFace, size: Double,
                      rightToLeft: Bool, script: hb_script_t, language: String?, tracking: Double,
                      syntheticBold: Bool = false) -> [ShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_codepoints(buffer, paragraph.baseAddress, Int32(paragraph.count),
                                 UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        if let language, !language.isEmpty { hb_buffer_set_language(buffer, hb_language_from_string(language, -1)) }
        hb_buffer_guess_segment_properties(buffer)
        if tracking != 0 {
            noLigatures.withUnsafeBufferPointer { hb_shape(face.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
        } else {
            hb_shape(face.hbFont, buffer, nil, 0)
        }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        let k = size / face.hbUnitsPerEm
        var out: [ShapedGlyph] = []
        out.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let p = positions[i]
            out.append(ShapedGlyph(id: infos[i].codepoint, cluster: Int(infos[i].cluster),
                                   advance: Double(p.x_advance) * k, dx: Double(p.x_offset) * k,
                                   dy: -Double(p.y_offset) * k))
        }
        if syntheticBold {
            // Emboldening widens each glyph by 1/24 em (FontFace.rasterizeOutline); make room for it.
            let extra = size / 24
            for i in out.indices where out[i].advance != 0 { out[i].advance += extra }
        }
        if tracking != 0 {
            // Tracking goes after the visually last glyph of each cluster.
            for i in out.indices where i == out.count - 1 || out[i + 1].cluster != out[i].cluster {
                out[i].advance += tracking
            }
        }
        return out
    }

    /// The Unicode script of a scalar (hb_unicode_script with HarfBuzz's built-in tables).
    static func script(of scalar: UInt32) -> hb_script_t {
        hb_unicode_script(unicodeFunctions, scalar)
    }

    nonisolated(unsafe) private static let unicodeFunctions = hb_unicode_funcs_get_default()

    /// True for scripts that take the script of their neighbours (Common, Inherited, Unknown).
    static func isNeutral(_ script: hb_script_t) -> Bool {
        script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
    }
}
