#!/usr/bin/env bash
# generate-protocols.sh — regenerates the committed wayland-scanner output in
# Sources/CBindings/CWaylandProtocols from protocols/*.xml.
#
# The output is committed because SwiftPM 6.3 does not run build-tool plugins for C targets
# (docs/wayland.md). CI runs this script and then `git diff --exit-code` on the folder, so the
# committed files always match the XML. `swift package generate-wayland-protocols` runs it too.
set -euo pipefail
cd "$(dirname "$0")/.."
scanner=${WAYLAND_SCANNER:-wayland-scanner}
command -v "$scanner" >/dev/null || { echo "generate-protocols: $scanner not found (Debian: libwayland-bin)" >&2; exit 1; }
out=Sources/CBindings/CWaylandProtocols
for xml in protocols/*.xml; do
  name=$(basename "$xml" .xml)
  "$scanner" client-header "$xml" "$out/include/$name-client-protocol.h"
  # private-code: the interface symbols stay inside the binary (not exported from a library).
  "$scanner" private-code "$xml" "$out/$name-protocol.c"
done
echo "generate-protocols: $(ls protocols/*.xml | wc -l) protocols → $out ($("$scanner" --version 2>&1))"
