#!/bin/bash
# Instruction counts of the feed tree's cold layout (docs/benchmark.md, "Layout"), for comparing
# commits without a release build of the whole package: compiles SilkSystem, SilkGeometry,
# SilkLayout and the feed benchmark of REV (a commit, or WT for the work tree) with -O -wmo into
# OUT/bench, prints `silk layout-bench`'s feed figures, then callgrind's count for N cold layouts
# (valgrind 3.19 cannot read Swift 6.3's DWARF, so it runs on a stripped copy). TREE `rtl` counts
# the feed laid out right-to-left, `grid` the grid dashboard (1920 pt wide) instead.
# usage: bench/layout/feed-callgrind.sh REV OUT [N] [feed|rtl|grid]
set -euo pipefail
rev=$1; out=$2; n=${3:-20}; tree=${4:-feed}
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"; mkdir -p "$out/src/Bench" "$out/mods"; cd "$out"
paths="Sources/SilkSystem Sources/SilkGeometry Sources/SilkLayout Tools/SilkLayoutTools/Benchmark/FeedBenchmark.swift Tools/SilkLayoutTools/Benchmark/GridBenchmark.swift"
if [ "$rev" = WT ]; then (cd "$repo" && tar -c $paths) | tar -x -C src
else git -C "$repo" archive "$rev" $paths | tar -x -C src; fi
flags="-O -wmo -package-name silk -enable-upcoming-feature ExistentialAny -swift-version 6"
for m in SilkSystem SilkGeometry SilkLayout; do
  swiftc $flags -parse-as-library -module-name $m -emit-module -emit-module-path mods/$m.swiftmodule \
    -emit-object -o $m.o -I mods $(find src/Sources/$m -name '*.swift') 2>&1 | grep -v warning || true
done
cat > main.swift <<'M'
import SilkGeometry
import SilkLayout
let args = CommandLine.arguments
if args.count > 3, args[1] == "cold" {
    let grid = args[3] == "grid"
    let (root, leaves, _) = grid ? makeGridDashboard(tiles: 166) : makeFeedTree(cells: 100)
    let width = grid ? 1920.0 : 375
    let direction: LayoutDirection = args[3] == "rtl" ? .rtl : .ltr
    let range = SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: .infinity))
    for _ in 0..<3 { for l in leaves { l.invalidateLayout() }; _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction)) }
    coldRuns(Int(args[2]) ?? 20, root, leaves, range, direction)
} else {
    print(benchmarkFeedLayout(cells: 100, width: 375, iterations: 400))
    print(benchmarkFeedLayout(cells: 100, width: 375, iterations: 400, direction: .rtl))
    print(benchmarkGridDashboard(iterations: 200))
}
@inline(never) func coldRuns(_ n: Int, _ root: LayoutNode, _ leaves: [LayoutNode], _ range: SizeRange, _ direction: LayoutDirection) {
    for _ in 0..<n { for l in leaves { l.invalidateLayout() }; _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction)) }
}
M
swiftc $flags -module-name Bench -I mods src/Tools/SilkLayoutTools/Benchmark/FeedBenchmark.swift src/Tools/SilkLayoutTools/Benchmark/GridBenchmark.swift main.swift *.o -o bench 2>&1 | grep -v warning || true
./bench
strip --strip-debug -o bench.stripped bench
valgrind --tool=callgrind --callgrind-out-file=callgrind.out --toggle-collect='*coldRuns*' ./bench.stripped cold "$n" "$tree" 2>&1 \
  | grep -E 'Collected' | sed "s/.*Collected :/instructions for $n cold layouts ($tree):/"
