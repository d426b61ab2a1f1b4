#!/bin/bash
# Every layout fixture's frames, in the browser and the Yoga-compatible mode, as `silk layout
# FILE --emit` writes them (CorpusEvaluator.emitJSON), for a commit or the work tree, without a
# build of the whole package: compiles SilkSystem, SilkGeometry, SilkLayout and SilkLayoutTools of
# REV (a commit, or WT) with -O -wmo into OUT and writes OUT/frames/FILE.browser and FILE.yoga
# for each Tests/SilkLayoutTests/Fixtures/*.json of the work tree. A change that must not move
# any frame compares two such folders with `cmp` (docs/benchmark.md, "Layout").
# `OUT/framesbin check FILE...` prints each case that fails in the browser mode (1-point tolerance).
# It also writes the frames of `silk layout-bench`'s trees with every digit of every double
# (OUT/frames/feed.ltr, feed.rtl, feed.narrow, feed.relayout, grid.ltr, grid.rtl).
# usage: bench/layout/fixture-frames.sh REV OUT
set -euo pipefail
rev=$1; out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"; mkdir -p "$out/src" "$out/mods" "$out/frames"; cd "$out"
paths="Sources/SilkSystem Sources/SilkGeometry Sources/SilkLayout Tools/SilkLayoutTools"
if [ "$rev" = WT ]; then (cd "$repo" && tar -c $paths) | tar -x -C src
else git -C "$repo" archive "$rev" $paths | tar -x -C src; fi
flags="-O -wmo -package-name silk -enable-upcoming-feature ExistentialAny -swift-version 6"
for m in SilkSystem SilkGeometry SilkLayout; do
  swiftc $flags -parse-as-library -module-name $m -emit-module -emit-module-path mods/$m.swiftmodule \
    -emit-object -o $m.o -I mods $(find src/Sources/$m -name '*.swift') 2>&1 | grep -v warning || true
done
swiftc $flags -parse-as-library -module-name SilkLayoutTools -emit-module -emit-module-path mods/SilkLayoutTools.swiftmodule \
    -emit-object -o SilkLayoutTools.o -I mods $(find src/Tools/SilkLayoutTools -name '*.swift') 2>&1 | grep -v warning || true
cat > main.swift <<'M'
import Foundation
import SilkLayout
import SilkGeometry
import SilkLayoutTools
if CommandLine.arguments[1] == "check" {
    for path in CommandLine.arguments.dropFirst(2) {
        let cases = try CorpusFile.load(contentsOf: URL(fileURLWithPath: path))
        var failed = 0
        for c in cases { if let f = CorpusEvaluator.run(c, tolerance: 1).failure { failed += 1; print("FAIL \((path as NSString).lastPathComponent) \(c.name): \(f)") } }
        print("\((path as NSString).lastPathComponent): \(cases.count - failed)/\(cases.count)")
    }
    exit(0)
}
// The benchmark trees: every frame, exactly (Double's description round-trips).
func dump(_ l: Layout, _ depth: Int, _ out: inout String) {
    let name = (l.element as? LayoutNode)?.name ?? String(describing: type(of: l.element))
    out += String(repeating: " ", count: depth) + "\(name) \(l.position.x) \(l.position.y) \(l.size.width) \(l.size.height)"
    if let b = l.baselines { out += " b \(b.first) \(b.last)" }
    out += "\n"
    for s in l.sublayouts { dump(s, depth + 1, &out) }
}
func write(_ name: String, _ layouts: [Layout?]) throws {
    var out = ""
    for l in layouts { if let l { dump(l, 0, &out) } else { out += "error\n" } }
    try Data(out.utf8).write(to: URL(fileURLWithPath: CommandLine.arguments[1] + "/" + name))
}
for (name, dir, width) in [("feed.ltr", LayoutDirection.ltr, 375.0), ("feed.rtl", .rtl, 375), ("feed.narrow", .ltr, 120)] {
    let (root, _, _) = makeFeedTree(cells: 100)
    let range = SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: .infinity))
    try write(name, [try? root.layoutThatFits(range, context: LayoutContext(direction: dir))])
}
do {  // cold, then one leaf invalidated and laid out again (the cached path), in both directions
    let (root, leaves, _) = makeFeedTree(cells: 100)
    let range = SizeRange(min: Size(width: 375, height: 0), max: Size(width: 375, height: .infinity))
    var ls: [Layout?] = []
    for dir in [LayoutDirection.ltr, .rtl] {
        ls.append(try? root.layoutThatFits(range, context: LayoutContext(direction: dir)))
        leaves[9].invalidateLayout()
        ls.append(try? root.layoutThatFits(range, context: LayoutContext(direction: dir)))
        ls.append(try? root.layoutThatFits(range, context: LayoutContext(direction: dir)))
    }
    try write("feed.relayout", ls)
}
for (name, dir) in [("grid.ltr", LayoutDirection.ltr), ("grid.rtl", .rtl)] {
    let (root, _, _) = makeGridDashboard(tiles: 166)
    let range = SizeRange(min: Size(width: 1920, height: 0), max: Size(width: 1920, height: .infinity))
    try write(name, [try? root.layoutThatFits(range, context: LayoutContext(direction: dir))])
}
for path in CommandLine.arguments.dropFirst(2) {
    let cases = try CorpusFile.load(contentsOf: URL(fileURLWithPath: path))
    for yoga in [false, true] {
        var results: [CorpusCaseResult] = []
        var failed = 0
        for c in cases { let r = CorpusEvaluator.run(c, tolerance: 1, yogaCompatible: yoga); if r.failure != nil { failed += 1 }; results.append(r) }
        let name = (path as NSString).lastPathComponent + (yoga ? ".yoga" : ".browser")
        try Data(CorpusEvaluator.emitJSON(results).utf8).write(to: URL(fileURLWithPath: CommandLine.arguments[1] + "/" + name))
        print(name, cases.count - failed, "passed", failed, "failed")
    }
}
M
swiftc $flags -module-name Frames -I mods main.swift *.o -o framesbin 2>&1 | grep -v warning || true
[ -n "${NORUN:-}" ] || ./framesbin frames "$repo"/Tests/SilkLayoutTests/Fixtures/*.json
