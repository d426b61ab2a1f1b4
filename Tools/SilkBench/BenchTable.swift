import Foundation

/// The report as a human table (`silk bench`, in the manner of LVGL's benchmark summary) and as
/// Markdown (`--markdown`, the README's results table).
extension BenchReport {
    public var header: [String] {
        ["Silk benchmark — \(backend) \(size[0])x\(size[1]) @\(fmt(scale, 3))x, \(build) build\(quick ? ", --quick" : ""), \(date)",
         "machine: \(machine.cores) cores \(machine.architecture), Linux \(machine.kernel), memcpy \(fmt(machine.memcpyGBps, 2)) GB/s, "
            + "one \(size[0])x\(size[1]) frame memcpy \(fmt(machine.frameCopyMs, 3)) ms, load average \(fmt(machine.loadAverage, 2))",
         "command: \(command)",
         "frame scenes: \(fmt(warmupSeconds, 2)) s warm-up (dropped) + \(fmt(measuredSeconds, 2)) s measured per mode; times in ms (CPU time, see docs/benchmark.md)"]
    }

    public func table() -> String {
        var out = header + [""]
        let cols = "scene              mode      fps  frame p50    p95    p99    max  missed |  main p50    p99 | composite p50 present p50 |  CPU %  RSS MiB"
        out.append(cols)
        out.append(String(repeating: "-", count: cols.count))
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func num(_ v: Double, _ w: Int, _ d: Int) -> String { let s = fmt(v, d); return String(repeating: " ", count: max(0, w - s.count)) + s }
        for scene in scenes {
            switch (scene.status, scene.kind) {
            case (.unavailable, _), (.failed, .measurement):
                out.append(pad(scene.name, 19) + "\(scene.status.rawValue): \(scene.reason ?? "")")
            case (_, .frames):
                var first = true
                for mode in ["async", "sync"] {
                    guard let m = scene.modes?[mode] else { continue }
                    if m.frames == 0 {
                        out.append(pad(first ? scene.name : "", 19) + pad(mode, 6) + "  no frame in the measured window (frames slower than it?)")
                        first = false
                        continue
                    }
                    out.append(pad(first ? scene.name : "", 19) + pad(mode, 6) + num(m.fps, 7, 1)
                               + num(m.frameMs.p50, 11, 2) + num(m.frameMs.p95, 7, 2) + num(m.frameMs.p99, 7, 2) + num(m.frameMs.max, 7, 2)
                               + num(Double(m.missedFrames), 8, 0) + " |" + num(m.mainBusyMs.p50, 10, 3) + num(m.mainBusyMs.p99, 7, 2)
                               + " |" + num(m.compositeMs.p50, 14, 3) + num(m.presentMs.p50, 12, 3) + " |" + num(m.cpuPercent, 7, 1)
                               + num(m.peakRSSMB, 9, 0))
                    first = false
                }
                if let a = scene.modes?["async"], let w = a.compositeWorkerCPUMs, let all = a.compositeAllCPUMs {
                    out.append(pad("", 19) + "async: banded composite: wall p50 \(fmt(a.compositeWallMs.p50, 3)) ms, render thread CPU p50 "
                               + "\(fmt(a.compositeMs.p50, 3)) ms, workers' CPU p50 \(fmt(w.p50, 3)) ms, all threads' CPU p50 \(fmt(all.p50, 3)) ms")
                }
                if let r = scene.ratios {
                    out.append(pad("", 19) + "sync/async: frame p50 ×\(fmt(r["frameP50"] ?? 0, 2)), p99 ×\(fmt(r["frameP99"] ?? 0, 2)); "
                               + "main p50 ×\(fmt(r["mainBusyP50"] ?? 0, 2)), p99 ×\(fmt(r["mainBusyP99"] ?? 0, 2)); "
                               + "fps ×\(fmt(r["fps"] ?? 0, 2)); CPU ×\(fmt(r["cpuPercent"] ?? 0, 2))")
                }
                if let a = scene.modes?["async"], let ph = a.placeholderCellFrames, let ttc = a.timeToContentMs {
                    out.append(pad("", 19) + "async: placeholder cell-frames \(ph), time to content mean \(fmt(ttc.mean, 1)) ms, "
                               + "stale frames \(a.staleFrames ?? 0), cold first frame \(fmt(a.coldFirstFrameMs ?? 0, 1)) ms"
                               + (scene.modes?["sync"]?.coldFirstFrameMs.map { " (sync \(fmt($0, 1)) ms)" } ?? ""))
                }
                if let note = scene.syncNote { out.append(pad("", 19) + "sync: n/a — \(note)") }
                if scene.status == .failed { out.append(pad(first ? scene.name : "", 19) + "failed: \(scene.reason ?? "")") }
            case (_, .measurement):
                let line = (scene.figures ?? []).map { "\(figureLabel($0.name)) \(fmt($0.value, $0.value >= 100 ? 0 : $0.value >= 10 ? 1 : 3)) \($0.unit)" }
                out.append(pad(scene.name, 19) + line.joined(separator: ", "))
            }
            for note in scene.notes ?? [] { out.append(pad("", 19) + "· " + note) }
        }
        out.append("")
        out += boardEstimates()
        out.append("")
        out.append("total \(fmt(totalSeconds, 1)) s")
        return out.joined(separator: "\n")
    }

    /// A Markdown table of every scene (for the README), then the measurement figures.
    public func markdown() -> String {
        var out = ["\(date.prefix(10)), `\(command)`, \(build) build, \(backend) \(size[0])×\(size[1]), "
                   + "\(machine.cores) cores \(machine.architecture), memcpy \(fmt(machine.memcpyGBps, 1)) GB/s "
                   + "(one frame \(fmt(machine.frameCopyMs, 2)) ms). Times in ms.", "",
                   "| scene | mode | fps | frame p50 / p99 | missed at 60 Hz | main p50 / p99 | composite p50 | present p50 | CPU % | peak RSS MiB |",
                   "|---|---|---|---|---|---|---|---|---|---|"]
        for scene in scenes where scene.kind == .frames {
            if scene.status == .unavailable || scene.modes == nil {
                out.append("| \(scene.name) | — | \(scene.status.rawValue): \(scene.reason ?? "") | | | | | | | |")
                continue
            }
            for mode in ["async", "sync"] {
                guard let m = scene.modes?[mode] else { continue }
                out.append("| \(scene.name) | \(mode) | \(fmt(m.fps, 1)) | \(fmt(m.frameMs.p50, 2)) / \(fmt(m.frameMs.p99, 2)) | \(m.missedFrames) | "
                           + "\(fmt(m.mainBusyMs.p50, 3)) / \(fmt(m.mainBusyMs.p99, 2)) | \(fmt(m.compositeMs.p50, 3)) | "
                           + "\(fmt(m.presentMs.p50, 3)) | \(fmt(m.cpuPercent, 1)) | \(fmt(m.peakRSSMB, 0)) |")
            }
            if let r = scene.ratios {
                out.append("| \(scene.name) | sync/async | ×\(fmt(r["fps"] ?? 0, 2)) | ×\(fmt(r["frameP50"] ?? 0, 2)) / ×\(fmt(r["frameP99"] ?? 0, 2)) | | "
                           + "×\(fmt(r["mainBusyP50"] ?? 0, 2)) / ×\(fmt(r["mainBusyP99"] ?? 0, 2)) | | | ×\(fmt(r["cpuPercent"] ?? 0, 2)) | |")
            }
        }
        out += ["", "| scene | figures |", "|---|---|"]
        for scene in scenes where scene.kind == .measurement {
            let figs = scene.status == .ok
                ? (scene.figures ?? []).map { "\(figureLabel($0.name)) \(fmt($0.value, $0.value >= 100 ? 0 : $0.value >= 10 ? 1 : 3)) \($0.unit)" }.joined(separator: ", ")
                : "\(scene.status.rawValue): \(scene.reason ?? "")"
            out.append("| \(scene.name) | \(figs) |")
        }
        return out.joined(separator: "\n")
    }
}

/// "jpegImagesPerSecond" → "jpeg images per second".
func figureLabel(_ name: String) -> String {
    var out = ""
    for c in name {
        if c.isUppercase { out += " " + c.lowercased() } else { out.append(c) }
    }
    return out.replacingOccurrences(of: " ms", with: "").replacingOccurrences(of: " per second", with: "")
        .replacingOccurrences(of: " megapixels", with: "").replacingOccurrences(of: " images", with: "")
}

func fmt(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }
