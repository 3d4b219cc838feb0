# isbnscan — targets:
#   make deps    install the Debian packages the build and tests need (only what is missing;
#                V4L2 needs only the kernel headers; the tests compile the fake camera with cc)
#   make build   debug build
#   make test    deps, then `swift test` (all test suites)
#   make scan    deps, release build, then scan the bundled test images (the main job)
#   make bench-deps      install what the benchmarks need: zbar-tools, zint, python3-venv (apt),
#                        then Pillow, numpy and zxing-cpp (pip) in a venv at .build/bench-venv
#   make bench           release build, then throughput: isbnscan vs zbarimg vs zxing-cpp on 300
#                        generated photos, and isbnscan's peak memory on 12-megapixel JPEGs (issue 3)
#   make bench-accuracy  release build, then decoded counts per reader and effort on ../shared/corpus
#                        and a generated hard set (issue 5); BENCH_JSON=file also writes JSON
#   make bench-camera  release build, then `isbnscan camera` on the fake V4L2 device (tests/
#                one core): frames/s at 1280x720 YUYV with the band region of interest
#   make fuzz    libFuzzer (ASan/UBSan) on every C decoding shim (PNG, JPEG, MJPEG, EXIF, TIFF, WebP,
#                GIF, HEIF, BMP) and the Swift decoders (image sniffing + PNM, line decoder, --roi
#                parsing, ISBN judging), FUZZ_SECONDS each (default 60); findings in Fuzz/findings/
#   make clean   remove build products
# Set SUDO=sudo when not running as root.

SWIFT ?= swift
SUDO ?=
RELEASE_BIN := .build/release/isbnscan

# Benchmarks: generated images (cached, reproducible) and a Python venv, both under .build.
BENCH_DIR := .build/bench
BENCH_VENV := .build/bench-venv
BENCH_PY := $(BENCH_VENV)/bin/python
BENCH_DEBS := zbar-tools zint python3-venv
CORPUS ?= ../shared/corpus
BENCH_JSON ?=
PIP := $(BENCH_PY) -m pip install -q --disable-pip-version-check --retries 1 --timeout 30

# pkg-config module → Debian package that provides it.
PKG_MODULES := zbar:libzbar-dev libpng16:libpng-dev libjpeg:libjpeg62-turbo-dev libexif:libexif-dev \
  libtiff-4:libtiff-dev libwebpdemux:libwebp-dev libgif:libgif-dev libheif:libheif-dev

# Folders `make scan` reads (their .txt answers are skipped as non-images).
SCAN_FOLDERS := TestImages/isbn TestImages/formats TestImages/exif TestImages/roi TestImages/rejected

# The fake V4L2 device of the tests (Tests/FakeV4L2), for bench-camera.
FAKE_V4L2 := .build/fakev4l2/libfakev4l2.so
BENCH_FRAMES ?= 3000

.PHONY: deps build test scan bench-deps bench bench-accuracy bench-camera fuzz clean

deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	for pair in $(PKG_MODULES); do \
	  module=$${pair%%:*}; package=$${pair#*:}; \
	  pkg-config --exists $$module 2>/dev/null || missing="$$missing $$package"; \
	done; \
	command -v setpriv >/dev/null 2>&1 || missing="$$missing util-linux"; \
	command -v cc >/dev/null 2>&1 || missing="$$missing gcc"; \
	[ -f /usr/include/linux/videodev2.h ] || missing="$$missing linux-libc-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "make deps: all packages present"; \
	fi

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) test

$(RELEASE_BIN): deps $(shell find Sources -type f) Package.swift
	$(SWIFT) build -c release --product isbnscan

scan: $(RELEASE_BIN)
	@echo "isbnscan scan $(SCAN_FOLDERS):" >&2
	@$(RELEASE_BIN) scan $(SCAN_FOLDERS); status=$$?; \
	  if [ $$status -ne 0 ] && [ $$status -ne 4 ]; then exit $$status; fi

# Debian packages first (only those dpkg lacks); then the venv. Pillow and numpy are required (fallback:
# Debian's python3-pil/python3-numpy through a venv that sees system packages); zxing-cpp is optional.
bench-deps:
	@missing=""; \
	for package in $(BENCH_DEBS); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make bench-deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@if ! $(BENCH_PY) -c 'import PIL, numpy' >/dev/null 2>&1; then \
	  echo "make bench-deps: creating $(BENCH_VENV) with Pillow and numpy"; \
	  rm -rf $(BENCH_VENV) && python3 -m venv $(BENCH_VENV) && $(PIP) pillow numpy || { \
	    echo "make bench-deps: pip failed; using Debian's python3-pil and python3-numpy"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends python3-pil python3-numpy && \
	    rm -rf $(BENCH_VENV) && python3 -m venv --system-site-packages $(BENCH_VENV); }; \
	fi
	@$(BENCH_PY) -c 'import zxingcpp' >/dev/null 2>&1 || $(PIP) zxing-cpp || \
	  echo "make bench-deps: NOTE: pip install zxing-cpp failed; the benchmarks will skip zxing-cpp"
	@echo "make bench-deps: ready ($$($(BENCH_PY) -c 'import importlib.metadata as m; print("Pillow", m.version("pillow"), "numpy", m.version("numpy"))'))"

bench: bench-deps $(RELEASE_BIN)
	$(BENCH_PY) Bench/make_photos.py --out $(BENCH_DIR)/photos --count 300 --seed 1
	$(BENCH_PY) Bench/make_photos.py --out $(BENCH_DIR)/photos-12mp --count 40 --seed 2 --size 4000x3000 --jpeg-only
	$(BENCH_PY) Bench/throughput.py --bin $(RELEASE_BIN) --photos $(BENCH_DIR)/photos --mem-photos $(BENCH_DIR)/photos-12mp

bench-accuracy: bench-deps $(RELEASE_BIN)
	$(BENCH_PY) Bench/make_hard_set.py --out $(BENCH_DIR)/hard --seed 7
	$(BENCH_PY) Bench/accuracy.py --bin $(RELEASE_BIN) --corpus $(CORPUS) --hard $(BENCH_DIR)/hard $(if $(BENCH_JSON),--json-out $(BENCH_JSON))
$(FAKE_V4L2): Tests/FakeV4L2/fakev4l2.c
	@mkdir -p $(dir $@)
	cc -O2 -shared -fPIC -o $@ $< -ljpeg -lpng

# Frames come as fast as isbnscan asks (FAKE_V4L2_FPS=0); the process is pinned to CPU 0.
# The fake rewrites a buffer only when its picture changes, so the time is isbnscan's:
# dequeue, copy of the band's luminance, zbar, confirmation.
bench-camera: $(RELEASE_BIN) $(FAKE_V4L2)
	@echo "isbnscan camera, $(BENCH_FRAMES) frames, 1280x720 YUYV, --roi 0.05,0.4,0.9,0.15, one core:" >&2
	@for case in "book in the band:TestImages/roi/band-inside.png" "no book:blank"; do 	  label=$${case%%:*}; frames=$${case#*:}; 	  line=$$(LD_PRELOAD=$(FAKE_V4L2) FAKE_V4L2_FRAMES=$$frames FAKE_V4L2_FPS=0 FAKE_V4L2_FORMATS=YUYV 	    FAKE_V4L2_SIZES=1280x720 taskset -c 0 $(RELEASE_BIN) camera --size 1280x720 --format YUYV 	    --roi 0.05,0.4,0.9,0.15 --continuous --max-frames $(BENCH_FRAMES) 2>&1 >/dev/null | tail -n 1); 	  echo "  $$label: $${line#camera: }"; 	done

# Fuzzing. The C shims are built with clang straight from their sources; the Swift target is its
# own product (Package.swift adds it when ISBNSCAN_FUZZ is set), built in .build/fuzz with the
# flags that give Swift code coverage under Swift 6.3 (SwiftPM's --sanitize alone does not).
FUZZ_SECONDS ?= 60
FUZZ_DIR := .build/fuzz-c
FUZZ_CORPUS := .build/fuzz-corpus
FUZZ_C_TARGETS := png:png jpeg:jpg mjpeg:jpg exif:jpg tiff:tif webp:webp gif:gif heif:heic bmp:bmp
FUZZ_LIBS := -lpng -ljpeg -lexif -ltiff -lwebpdemux -lwebp -lgif -lheif
FUZZ_FLAGS = -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 -print_final_stats=1

fuzz: deps
	@mkdir -p $(FUZZ_DIR) Fuzz/findings
	@for pair in $(FUZZ_C_TARGETS); do \
	  name=$${pair%%:*}; ext=$${pair#*:}; upper=$$(echo $$name | tr a-z A-Z); \
	  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DFUZZ_$$upper \
	    -ISources/CCodecs/include -ISources/CCodecs $$(pkg-config --cflags libheif) \
	    Fuzz/fuzz_codec.c Sources/CCodecs/*.c -o $(FUZZ_DIR)/fuzz-$$name $(FUZZ_LIBS) 2>/dev/null || exit 1; \
	  mkdir -p $(FUZZ_CORPUS)/$$name; \
	  cp $$(find TestImages Fuzz/regressions -name "*.$$ext" -size -200k) $(FUZZ_CORPUS)/$$name/ 2>/dev/null; \
	  if [ $$name = exif ]; then cp TestImages/formats/*.tif $(FUZZ_CORPUS)/$$name/; fi; \
	  $(FUZZ_DIR)/fuzz-$$name $(FUZZ_FLAGS) -artifact_prefix=Fuzz/findings/$$name- $(FUZZ_CORPUS)/$$name \
	    > $(FUZZ_DIR)/$$name.log 2>&1; status=$$?; \
	  echo "fuzz $$name: $$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $(FUZZ_DIR)/$$name.log), exit $$status"; \
	done
	ISBNSCAN_FUZZ=1 $(SWIFT) build -c release --build-path .build/fuzz --product isbnscan-fuzz \
	  --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
	  -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -enable-testing 2>&1 | grep -v "Cannot export local symbol" | tail -1
	@mkdir -p $(FUZZ_CORPUS)/swift
	@i=0; for f in $$(find TestImages Fuzz/regressions -type f -size -100k ! -name "*.txt" ! -name "*.md" ! -name "*.py"); do \
	  i=$$((i+1)); { printf '\000'; cat $$f; } > $(FUZZ_CORPUS)/swift/image-$$i; done
	@python3 -c "d='$(FUZZ_CORPUS)/swift/'; w=lambda n, b: open(d + n, 'wb').write(b); \
	  w('line', bytes([1] + [255] * 20 + [0, 0, 255, 255] * 30 + [255] * 20)); \
	  w('roi', b'\x020.05,0.4,0.9,0.15'); w('isbn', b'\x03ISBN 978-0-306-40615-7')"
	@.build/fuzz/release/isbnscan-fuzz $(FUZZ_FLAGS) -artifact_prefix=Fuzz/findings/swift- $(FUZZ_CORPUS)/swift \
	  > $(FUZZ_DIR)/swift.log 2>&1; status=$$?; \
	  echo "fuzz swift: $$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $(FUZZ_DIR)/swift.log), exit $$status"
	@ls Fuzz/findings 2>/dev/null | grep . && echo "make fuzz: findings above (Fuzz/findings/); logs in $(FUZZ_DIR)" || echo "make fuzz: no findings"

clean:
	$(SWIFT) package clean
	rm -rf .build
