#!/bin/bash
# Instruction counts of the feed tree's cold layout (docs/benchmark.md, "Layout"), for comparing
# commits without a release build of the whole package: compiles SilkSystem, SilkGeometry,
# SilkLayout and the feed benchmark of REV (a commit, or WT for the work tree) with -O -wmo into
# OUT/bench, prints `silk layout-bench`'s feed figures, then callgrind's count for N cold layouts
# (valgrind 3.19 cannot read Swift 6.3's DWARF, so it runs on a stripped copy).
# usage: bench/layout/feed-callgrind.sh REV OUT [N]
set -euo pipefail
rev=$1; out=$2; n=${3:-20}
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"; mkdir -p "$out/src/Bench" "$out/mods"; cd "$out"
paths="Sources/SilkSystem Sources/SilkGeometry Sources/SilkLayout Tools/SilkLayoutTools/Benchmark/FeedBenchmark.swift"
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
if args.count > 2, args[1] == "cold" {
    let (root, leaves, _) = makeFeedTree(cells: 100)
    let range = SizeRange(min: Size(width: 375, height: 0), max: Size(width: 375, height: .infinity))
    for _ in 0..<3 { for l in leaves { l.invalidateLayout() }; _ = try? root.layoutThatFits(range, context: LayoutContext()) }
    coldRuns(Int(args[2]) ?? 20, root, leaves, range)
} else {
    print(benchmarkFeedLayout(cells: 100, width: 375, iterations: 400))
}
@inline(never) func coldRuns(_ n: Int, _ root: LayoutNode, _ leaves: [LayoutNode], _ range: SizeRange) {
    for _ in 0..<n { for l in leaves { l.invalidateLayout() }; _ = try? root.layoutThatFits(range, context: LayoutContext()) }
}
M
swiftc $flags -module-name Bench -I mods src/Tools/SilkLayoutTools/Benchmark/FeedBenchmark.swift main.swift *.o -o bench 2>&1 | grep -v warning || true
./bench
strip --strip-debug -o bench.stripped bench
valgrind --tool=callgrind --callgrind-out-file=callgrind.out --toggle-collect='*coldRuns*' ./bench.stripped cold "$n" 2>&1 \
  | grep -E 'Collected' | sed "s/.*Collected :/instructions for $n cold layouts:/"
