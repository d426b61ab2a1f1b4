#!/usr/bin/env bash
# demo.sh SILK OUT — renders every snapshot scene to OUT/ and says where.
set -euo pipefail
silk=$1; out=$2
mkdir -p "$out"
echo "Silk demo: rendering the snapshot scenes (headless PNG output)."
for scene in card rainforest text shapes; do
  "$silk" snapshot "$scene" --out "$out/$scene.png"
  "$silk" snapshot "$scene" --scale 2 --out "$out/$scene@2x.png"
done
echo
echo "Open the PNGs in $(cd "$out" && pwd)/ to see them."
