# Silk — the two commands: `make demo` and `make test`. See README.md.
SWIFT      ?= swift
CONFIG     ?= release
BUILD_DIR  := .build
SILK_DEBUG := $(BUILD_DIR)/debug/silk
SILK       := $(BUILD_DIR)/$(CONFIG)/silk
OUT        ?= out

BENCH_OUT  ?= $(OUT)/bench

# fuzz, test-asan and soak: docs/reliability.md.
.PHONY: all demo test docs test-tsan test-asan fuzz soak bench bench-peers bench-smoke build build-debug deps deps-test unit-tests cli-tests examples e2e-fbdev e2e-wayland e2e-accessibility protocols-check snapshots record-golden clean

all: build

deps:
	@scripts/ensure-packages.sh build

deps-test:
	@scripts/ensure-packages.sh test

build: deps
	$(SWIFT) build -c $(CONFIG)

build-debug: deps
	$(SWIFT) build

## make demo: install what is missing, build, and run the flagship demo on the best backend
## (Wayland, else the framebuffer, else headless writing PNG frames to $(OUT)/ and saying where).
demo: build
	@scripts/ensure-packages.sh demo
	@scripts/demo.sh $(SILK) $(OUT)

## make test: install what the tests need, build, run every test; fails loudly on any failure.
## Includes the end-to-end tests under real compositors and in QEMU (SILK_SKIP_E2E=1 skips them
## locally), the ThreadSanitizer run of the concurrency tests (SILK_SKIP_TSAN=1 skips it), the
## AddressSanitizer run (SILK_SKIP_ASAN=1), a 20 s smoke of each fuzzer (SILK_SKIP_FUZZ=1) and a
## 60 s soak, 30 s each of the rainforest and the feed (SILK_SKIP_SOAK=1).
## Each phase prints a "== make test: …" line with the time, so a slow CI run shows where it went.
PHASE = @echo "== make test: $$(date +%T) $(1)"
test: deps-test
	$(call PHASE,build with tests (debug))
	$(SWIFT) build --build-tests
	$(call PHASE,unit + cli + protocol + bench-smoke tests)
	$(MAKE) --no-print-directory unit-tests cli-tests protocols-check bench-smoke
	$(call PHASE,example apps (separate packages, import Silk))
	$(MAKE) --no-print-directory examples
	$(call PHASE,API reference: doc coverage + DocC (warnings are errors))
	$(MAKE) --no-print-directory docs
	$(call PHASE,end-to-end: Wayland compositors and QEMU framebuffer)
	@if [ "$${SILK_SKIP_E2E:-0}" != 1 ]; then $(MAKE) --no-print-directory e2e-wayland e2e-fbdev e2e-accessibility; fi
	$(call PHASE,ThreadSanitizer)
	@if [ "$${SILK_SKIP_TSAN:-0}" != 1 ]; then $(MAKE) --no-print-directory test-tsan; fi
	$(call PHASE,AddressSanitizer)
	@if [ "$${SILK_SKIP_ASAN:-0}" != 1 ]; then $(MAKE) --no-print-directory test-asan; fi
	$(call PHASE,fuzz smoke)
	@if [ "$${SILK_SKIP_FUZZ:-0}" != 1 ]; then $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20; fi
	$(call PHASE,soak)
	@if [ "$${SILK_SKIP_SOAK:-0}" != 1 ]; then $(MAKE) --no-print-directory soak SOAK_SECONDS=30; fi
	$(call PHASE,all passed)

## ThreadSanitizer over the run loop, render-thread and text concurrency tests (own build folder).
TSAN_FILTER ?= SilkRunLoopTests|RenderThreadTests|RenderStressTests|NodeStressTests|PipelineTests|concurrentLayoutAndDrawingMatch|ConcurrencyTests|HTTPClientTests
test-tsan: deps-test
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_FILTER)'

## AddressSanitizer with leak detection over the unit tests (own build folder). Leaks that are
## one-time allocations in system libraries are suppressed in scripts/lsan.supp, each justified.
## ASAN_UNWIND=fast (default) records allocation stacks by frame pointers; =slow by DWARF, whole
## stacks through system libraries, ~6x slower (see scripts/lsan-fast-unwind.supp).
ASAN_FILTER ?=
ASAN_UNWIND ?= fast
test-asan: deps-test
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	@cat scripts/lsan.supp $(if $(filter slow,$(ASAN_UNWIND)),,scripts/lsan-fast-unwind.supp) > .build-asan/lsan.supp
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:fast_unwind_on_malloc=$(if $(filter slow,$(ASAN_UNWIND)),0,1):malloc_context_size=30" \
	  LSAN_OPTIONS="suppressions=$(CURDIR)/.build-asan/lsan.supp:print_suppressions=0" \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(if $(ASAN_FILTER),--filter '$(ASAN_FILTER)')

## libFuzzer + ASan over the PNG and JPEG decoders, text layout, the layout evaluator, the
## evdev parser, the feed JSON, the demo server's request parser and SVG (librsvg), FUZZ_SECONDS each, one after another (`make fuzz FUZZ_SECONDS=600` locally).
FUZZ_SECONDS ?= 60
FUZZERS ?= png jpeg text layout evdev feed request svg animated lottie
fuzz: deps-test
	@scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZERS)

## The rainforest and the feed scrolled and mutated on headless for SOAK_SECONDS each (release):
## RSS over time and its slope after warm-up, open descriptors, missed frames; fails on growth.
SOAK_SECONDS ?= 600
SOAK_SCENES ?= rainforest feed
soak: deps
	$(SWIFT) build -c release --static-swift-stdlib --product silk   # the e2e-fbdev build: no rebuild in make test
	@mkdir -p $(OUT)
	@for s in $(SOAK_SCENES); do $(BUILD_DIR)/release/silk soak $$s --seconds $(SOAK_SECONDS) \
	  --sample-every $$(( $(SOAK_SECONDS) >= 300 ? 10 : 5 )) --csv $(OUT)/soak-$$s.csv || exit 1; done

unit-tests:
	$(SWIFT) test --skip-build

cli-tests:
	@Tests/cli/run.sh $(SILK_DEBUG)

## The framebuffer presenter on a real /dev/fb0 in QEMU (bochs 32 bpp and vesafb RGB565): the
## release binary with a static Swift runtime, compared with the headless snapshot, keys, a
## click, SIGTERM; a third VM types into the sign-in form by on-screen keyboard taps and send-key;
## a fourth plays the signage demo's video with GStreamer's plugins in the image; a fifth drives the
## controls demo by touch (a uinput touchscreen), on fbdev and as a Wayland client of sway
## (wayland-touch: sway, seatd and udevd in the image); the KMS VMs follow (docs/kms.md).
## Five to twelve minutes here (host load); set SILK_SKIP_E2E=1 to leave it out of `make test`.
e2e-fbdev: deps-test
	$(SWIFT) build -c release --static-swift-stdlib --product silk
	timeout 840 Tests/e2e/fbdev.sh $(BUILD_DIR)/release/silk

## The example apps (Examples/*, each its own package depending on Silk by path): built, run
## headless with --screenshot and compared with Tests/examples/Golden.
examples:
	@Tests/examples/run.sh

## The AT-SPI2 bridge under a private accessibility bus: a pyatspi client walks the kiosk demo
## (headless), presses Next through the Action interface and checks the events; then talk-back
## speaks a touched button into a WAV that sox measures. About fifteen seconds.
e2e-accessibility:
	@Tests/e2e/accessibility.sh $(SILK_DEBUG)

## The Wayland presenter under weston, sway and cage (headless): screenshots, input, resize, scale.
e2e-wayland:
	@Tests/e2e/wayland.sh $(SILK_DEBUG)

## make docs: the API reference of the app-facing modules, one combined DocC archive built by
## swift-docc-plugin at $(OUT)/docs/Silk.doccarchive (articles: Sources/Silk/Silk.docc). Fails when
## a public symbol lacks a doc comment (scripts/check-doc-coverage.py, which reads the symbol
## graphs), when the getting-started article's code is not the hello example's main.swift, and on
## any DocC warning, such as a ``link`` to a symbol that does not exist.
## Browse it with `docc preview` or serve the archive with any static file server.
DOC_TARGETS := Silk SilkGeometry SilkInput SilkLayout SilkNodes SilkRaster SilkRender SilkRunLoop SilkNetworkImage SilkAccessibility SilkVideo
docs:
	@scripts/check-doc-coverage.py
	@scripts/check-getting-started.sh
	@mkdir -p $(OUT)/docs
	$(SWIFT) package --allow-writing-to-directory $(OUT)/docs generate-documentation \
	  --enable-experimental-combined-documentation $(addprefix --target ,$(DOC_TARGETS)) \
	  --warnings-as-errors --output-path $(OUT)/docs/Silk.doccarchive

## The committed wayland-scanner output matches protocols/*.xml.
protocols-check:
	@scripts/generate-protocols.sh >/dev/null && git diff --exit-code --stat -- Sources/CBindings/CWaylandProtocols

## make bench: the full benchmark (every scene, async and sync; about a minute) on the release
## build: the table on stdout and in $(BENCH_OUT)/bench.txt, JSON, a Markdown table and the plot.
bench: build
	@mkdir -p $(BENCH_OUT)
	$(SILK) bench --json $(BENCH_OUT)/bench.json --plot $(BENCH_OUT)/bench.png --markdown $(BENCH_OUT)/bench.md | tee $(BENCH_OUT)/bench.txt
	@scripts/validate-bench-json.py $(BENCH_OUT)/bench.json

## make bench-peers: Silk against its peers, not in make test (~4 minutes): rainforest-scroll
## against the Qt Quick software peer in interleaved rounds (ROUNDS=5; the table with a Silk ÷ Qt
## column) and `silk snapshot card` against a cairo + Pango program (bench/peers/, docs/benchmark.md).
bench-peers: build
	@scripts/ensure-packages.sh peers
	bench/peers/bench-peers.sh $(SILK) $(OUT)/bench-peers

## CI's benchmark smoke test: `silk bench --quick` (release build, the binary e2e-fbdev builds
## too) must finish, write a plot, and produce JSON that validates against
## docs/benchmark.schema.json. No timing is asserted.
bench-smoke:
	$(SWIFT) build -c release --static-swift-stdlib --product silk
	@mkdir -p $(OUT)/bench-smoke
	timeout 180 $(BUILD_DIR)/release/silk bench --quick --json $(OUT)/bench-smoke/quick.json --plot $(OUT)/bench-smoke/quick.png >$(OUT)/bench-smoke/quick.txt
	@scripts/validate-bench-json.py $(OUT)/bench-smoke/quick.json
	@python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n", "not a PNG"; print("bench-smoke: plot %dx%d" % struct.unpack(">II", d[16:24]))' $(OUT)/bench-smoke/quick.png

## Other toolchains and aarch64 (docs/portability.md): not part of `make test` (first run creates
## Debian roots in $(SILK_ROOTS), default /var/cache/silk-roots; needs root and the Debian archive).
## test-portability: build + unit tests with trixie's Swift 6.0.3 and sid's 6.2.3 and their libraries.
## test-arm64: cross-build for aarch64, unit tests under qemu-user, scenes vs x86-64, emulated boards.
.PHONY: test-portability test-arm64 deps-portability
deps-portability:
	@scripts/ensure-packages.sh portability
test-portability: deps-portability
	Tests/portability/run.sh
test-arm64: deps-portability
	Tests/arm64/run.sh

## Re-record golden snapshots after an intended visual change (then look at the PNGs!).
record-golden:
	SILK_RECORD_GOLDEN=1 $(SWIFT) test --filter Golden || true
	@echo "Re-recorded; review with: git status Tests/*/Golden"

clean:
	rm -rf $(BUILD_DIR) $(OUT)
