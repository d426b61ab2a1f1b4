#!/usr/bin/env bash
# swift-log-for-swift-6.0.sh MIRROR DEST — a copy of swift-log that Swift 6.0 and 6.1 can build,
# for the Debian-root builds with trixie's swiftlang 6.0.3 (scripts/debian-root.sh).
#
# Why: Silk asks for swift-log `from: "1.5.0"`. With GitHub, SwiftPM on Swift 6.0 skips releases
# whose manifest needs a newer tools version and takes an older one. The local package mirror
# this machine uses holds one release only (1.16.2), whose manifest needs tools 6.2 and whose
# sources use three newer spellings. So this makes DEST, a git repository with that release
# plus one commit that (a) adds `Package@swift-6.0.swift` (the same two library targets, without
# package traits, which 6.0 lacks: every log level stays available, swift-log's default), and
# (b) rewrites the three spellings for 6.0: `nonisolated(nonsending)` dropped (6.0's default
# for those async functions is to hop off the caller's actor, which Silk does not rely on),
# trailing commas in parameter lists removed, `#if _runtime(_multithreaded)` → `#if os(Linux)`.
# Its tag 1.16.2 points at that commit. Silk's own sources are not touched.
set -euo pipefail
mirror=$1 dest=$2
made() { git -C "$dest" log -1 --format=%s 2>/dev/null | grep -q "Silk's portability"; }
made && exit 0
mkdir -p "$(dirname "$dest")"; exec 8>"$dest.lock"; flock 8; made && exit 0   # one maker at a time
rm -rf "$dest.tmp"; git clone -q "$mirror" "$dest.tmp"
cd "$dest.tmp"
tag=$(git describe --tags --exact-match HEAD)
python3 - <<'P'
import glob, re
for p in glob.glob('Sources/**/*.swift', recursive=True):
    s = open(p).read()
    t = s.replace('nonisolated(nonsending) ', '').replace('_runtime(_multithreaded)', 'os(Linux)')
    t = re.sub(r',(\s*\n\s*[\)\]>])', r'\1', t)
    if t != s: open(p, 'w').write(t)
P
cat > 'Package@swift-6.0.swift' <<'M'
// swift-tools-version:6.0
// Added by Silk's scripts/swift-log-for-swift-6.0.sh: this release's Package.swift without traits.
import PackageDescription
let package = Package(
    name: "swift-log",
    products: [
        .library(name: "Logging", targets: ["Logging"]),
        .library(name: "InMemoryLogging", targets: ["InMemoryLogging"]),
    ],
    targets: [
        .target(name: "Logging", dependencies: [], exclude: ["CMakeLists.txt"]),
        .target(name: "InMemoryLogging", dependencies: ["Logging"], exclude: ["CMakeLists.txt"]),
    ]
)
M
git add -A
git -c user.name=silk -c user.email=silk@localhost commit -q -m "Buildable with Swift 6.0 (Silk's portability builds)"
git tag -f "$tag" >/dev/null
cd - >/dev/null; rm -rf "$dest"; mv "$dest.tmp" "$dest"
