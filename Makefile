# SPDX-License-Identifier: Apache-2.0
# isbnscan — targets:
#   make deps    install the Debian packages the build and every feature need (only what is
#                missing): the libraries' headers (SDL2's, libheif's, libtiff's, Tesseract's and the
#                lookup's too: opened with dlopen when first needed, not linked; their -dev packages
#                bring the libraries), V4L2's header, strip, Tesseract's English data (scan --text)
#   make test-deps  deps, then what only the tests use: cc (the fake camera), setpriv, zint, python3,
#                groff, zsh, fish, dpkg-dev, and Xvfb, xdotool, xwd, netpbm, Xlib for the preview's tests;
#                then pybtex and rispy (pip, the exports' readers) in a venv at .build/test-venv
#   make build   debug build
#   make test    test-deps, then an optimised test build (TEST_CONFIG=debug: the debug build), then
#                every test suite but the long ones
#                (Tests/run-suites.py: a process a suite, TEST_JOBS at a time), the packaging tests
#                (make install and make deb into scratch folders) among them; whole output in
#                .build/test-logs, progress every 20 s, counts (and failures in full) and the 20
#                slowest tests on the terminal [VERBOSE=1: all of it]
#   make test-long  the same for the suites slow by nature (names ending in LongTests: hundreds of
#                pictures at thorough effort, soak runs); CI runs it after make test
#   make scan    deps, the release build make install installs (STATIC_BIN: one build serves both),
#                then scan the bundled test images (the main job)
#   make try-camera [PREVIEW=1]  that same build (none when it is current), then `isbnscan devices`
#                and `isbnscan camera` on the fake V4L2 device (Tests/FakeV4L2) showing a book in
#                grey (neutral chroma): no webcam needed; PREVIEW=1 with the window (under xvfb-run
#                when there is no DISPLAY)
#   make bench-deps      install what the benchmarks need: zbar-tools, zint, python3-venv (apt),
#                        then Pillow, numpy and zxing-cpp (pip) in a venv at .build/bench-venv
#   make bench           release build, then the per-call time of one small PNG and JPEG (isbnscan as
#                        installed and the release build vs zbarimg, paired runs, median and ratio), throughput: isbnscan vs zbarimg vs
#                        zxing-cpp on 300 generated photos, and isbnscan's peak memory on 12-megapixel JPEGs
#   make bench-accuracy  release build, then decoded counts and trust (wrong ISBNs, books lost to a
#                        misread) per reader and effort on ../shared/corpus, a generated hard set and a
#                        generated misread-prone set (issues 5, 9); then a generated blur sweep (disk
#                        defocus of 0.5-3 modules at 1.5/2/3 px per module: read rate per cell, wrong
#                        codes, ms/image) and 200 generated pictures without a barcode (noise, textures,
#                        text, bar-like patterns: every code is wrong) (issue 11); then a second, independent
#                        generated blur set, "blur as the world makes it" (Gaussian, disk defocus, motion
#                        across and along the bars, defocus + motion; 1.2-4 px per module, in linear light),
#                        a tune part and a held-out part reported apart, read rate per blur kind and size,
#                        generated crops without a quiet zone (cut at, inside or outside the guard bars):
#                        reads per reader and cut, and a third blur set drawn from a camera model
#                        (Bench/make_blur_check.py: check-a to look at, check-b kept blind) (issue 27);
#                        photos of 4-20 books on a table and pictures without a barcode at 4 and 12 MP
#                        (Bench/make_many_books.py: a tune part and a blind part): books read per reader
#                        and effort, wrong ISBNs, nesting per photo, CPU per photo (issue 45).
#                        Every set: wrong ISBNs per effort and files a higher effort reads less than a
#                        lower one, with a summary. BENCH_JSON=file also writes JSON. Then the printed-ISBN sets of bench-text (issue 28)
#   make bench-text    release build, then printed-ISBN reading (scan --text) on generated pages
#                (Bench/make_text_set.py: copyright pages, back covers, Japanese lines, look-alike numbers;
#                6-14 pt at 150-300 dpi, rotation, blur, JPEG, uneven light; a tune part and a held-out part
#                in other fonts, reported apart): read rate, wrong ISBNs, pages without an ISBN that gave
#                one, ms per page; small-type lines (Bench/make_small_type_set.py: capitals 5-10 px above a
#                covered barcode's place, tune and blind parts); then the corpus's real photos of book
#                barcodes with the bars covered (Bench/make_covered_set.py), beside the plain tesseract CLI. bench-accuracy runs it too
#   make bench-camera  release build, then `isbnscan camera` on the fake V4L2 device (tests/):
#                frames/s at 1280x720 YUYV with the band region of interest, without and with
#                --preview (under Xvfb when DISPLAY is unset), and what the preview costs; then
#                realistic frames (cover text, blur, noise; generated, seeded) at YUYV 720p, MJPG
#                720p and 1080p on one core, spread scan vs --line-step 1 [BEFORE_BIN=old binary];
#                then time to the first ISBN of blurred books held in front of the camera at 30
#                frames/s with the default options (Bench/make_camera_blur.py, tune and held-out parts)
#   make bench-catalog  release build, then 4 and 8 concurrent `scan --db` writers on one catalogue over
#                overlapping and separate folders with random SIGKILLs, kill-and-resume trials and
#                `scan --db | head -1`: integrity_check, comparison with a single-process run, files
#                recorded / scanned, lock waits, retries, time (python3 only) [BENCH_CATALOG_ARGS=
#                "--concurrent-runs 50 --kill-trials 100" for the long run]
#   make bench-lookup  release build, then `isbnscan lookup` against the tests' local provider
#                server: requests/s and lookups/s each provider gets (the rate limiter's pace),
#                `catalog lookup`'s rate, and a scan's time with `--lookup` on a dripping provider
#   make docs    build that binary and write its man page and completions to .build/docs
#   make install [PREFIX=/usr/local] [DESTDIR=]   the isbnscan binary built to run without the
#                Swift toolchain (Swift runtime linked in), its man page isbnscan(1) and bash,
#                zsh and fish completions (generated from the option tables: isbnscan help --man)
#   make uninstall  remove what make install put under the same PREFIX and DESTDIR
#   make deb     a Debian package .build/deb/isbnscan_<version>_<arch>.deb (dpkg-deb, Depends from
#                dpkg-shlibdeps; Recommends SDL2 and libheif, which isbnscan opens only for --preview
#                and HEIF/AVIF files); install it with apt-get install ./.build/deb/isbnscan_*.deb
#   make ranges-source  regenerate Sources/ISBN/BundledRangeMessage.swift (text and compact table, python3) from the range message
#                Sources/ISBN/Resources/RangeMessage.xml (after replacing that file)
#   make fuzz    libFuzzer (ASan/UBSan) on every C decoding shim (PNG, JPEG, MJPEG, EXIF, TIFF, WebP,
#                GIF, HEIF, BMP) and the Swift decoders (image sniffing + PNM, line decoder, --roi
#                parsing, ISBN judging, the providers' answer parsers), FUZZ_SECONDS each (default 60);
#                findings in Fuzz/findings/
#   make clean   remove build products
# apt-get runs through sudo when make is not run as root (SUDO= to run it as is).

SWIFT ?= swift
SUDO ?= $(if $(filter 0,$(shell id -u)),,sudo)
RELEASE_BIN := .build/release/isbnscan

# The commit `isbnscan --version` names (Package.swift hands it to Sources/CBuildInfo): 12 hex
# digits, and "-modified" when tracked files differ from it. Empty outside a git checkout (a
# tarball: the same sources give the same binary). A stamp per commit rebuilds the binaries
# when it changes; none when git gives no commit, so that `sudo make install` (where git refuses
# a checkout owned by another user) copies the binary `make docs` built instead of building anew.
ifeq ($(origin ISBNSCAN_COMMIT),undefined)
ISBNSCAN_COMMIT := $(if $(wildcard .git),$(shell git describe --always --abbrev=12 --match=NONE --dirty=-modified 2>/dev/null))
endif
export ISBNSCAN_COMMIT
COMMIT_STAMP := $(if $(ISBNSCAN_COMMIT),.build/stamps/commit-$(ISBNSCAN_COMMIT))

# The tests' Python packages (pybtex and rispy read the BibTeX and RIS exports as the programs
# they are meant for do: Tests/ExportReaders), in a venv of their own under .build.
TEST_VENV := .build/test-venv
TEST_PY := $(TEST_VENV)/bin/python
TEST_PIP_PACKAGES := pybtex rispy

# Benchmarks: generated images (cached, reproducible) and a Python venv, both under .build.
BENCH_DIR := .build/bench
BENCH_VENV := .build/bench-venv
BENCH_PY := $(BENCH_VENV)/bin/python
BENCH_DEBS := zbar-tools zint python3-venv fonts-dejavu-core fonts-dejavu-extra fonts-ocr-b fonts-liberation2 fonts-freefont-ttf fonts-urw-base35 tesseract-ocr
CORPUS ?= ../shared/corpus
BENCH_JSON ?=
PIP := $(BENCH_PY) -m pip install -q --disable-pip-version-check --retries 1 --timeout 30

# pkg-config module → Debian package that provides it.
PKG_MODULES := zbar:libzbar-dev libpng16:libpng-dev libdeflate:libdeflate-dev libjpeg:libjpeg62-turbo-dev libexif:libexif-dev sqlite3:libsqlite3-dev \
  libtiff-4:libtiff-dev libwebpdemux:libwebp-dev libgif:libgif-dev libheif:libheif-dev \
  libcurl:libcurl4-openssl-dev json-c:libjson-c-dev libxml-2.0:libxml2-dev tesseract:libtesseract-dev

# Folders `make scan` reads (their .txt answers are skipped as non-images).
SCAN_FOLDERS := TestImages/isbn TestImages/formats TestImages/exif TestImages/roi TestImages/rejected

# The fake V4L2 device of the tests (Tests/FakeV4L2), for bench-camera.
FAKE_V4L2 := .build/fakev4l2/libfakev4l2.so
BENCH_FRAMES ?= 3000
# bench-camera: an older isbnscan binary to compare with on the realistic frames (optional).
BEFORE_BIN ?=

# Installation: the release binary with the Swift standard library (and Foundation) linked in
# statically and no $ORIGIN runpath, built in its own scratch folder so that it never mixes with
# the ordinary release build; man page and completions generated by that binary.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# Debian's zsh searches /usr/share/zsh/vendor-completions (packages) and
# /usr/local/share/zsh/site-functions (local installs).
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
STATIC_DIR := .build/static
STATIC_BIN := $(STATIC_DIR)/release/isbnscan
DOCS_DIR := .build/docs
INSTALLED := $(BINDIR)/isbnscan $(MANDIR)/man1/isbnscan.1 $(BASHCOMPDIR)/isbnscan $(ZSHCOMPDIR)/_isbnscan \
             $(FISHCOMPDIR)/isbnscan.fish

.PHONY: deps test-deps deb-deps deb-maintainer try-camera-deps build test test-long scan try-camera bench-deps bench bench-accuracy bench-camera bench-text bench-catalog bench-lookup clean docs install uninstall deb ranges-source fuzz

# What each set needs, as shell tests that add the missing Debian package to $$missing.
need-cmd = command -v $(1) >/dev/null 2>&1 || missing="$$missing $(2)";
need-file = [ -f $(1) ] || missing="$$missing $(2)";
need-pc = pkg-config --exists $(1) 2>/dev/null || missing="$$missing $(2)";
need-deb = dpkg-query -W -f='$${Status}' $(1) 2>/dev/null | grep -q "install ok installed" || missing="$$missing $(1)";
# The build and every feature at run time: headers of the linked and dlopened libraries (their
# -dev packages pull in the libraries), V4L2's header, strip for make install, Tesseract's data.
BUILD_NEEDS = $(call need-cmd,pkg-config,pkg-config) \
  $(foreach pair,$(PKG_MODULES),$(call need-pc,$(firstword $(subst :, ,$(pair))),$(lastword $(subst :, ,$(pair))))) \
  $(call need-pc,sdl2,libsdl2-dev) $(call need-file,/usr/include/linux/videodev2.h,linux-libc-dev) \
  $(call need-cmd,strip,binutils) $(call need-file,/usr/share/tesseract-ocr/5/tessdata/eng.traineddata,tesseract-ocr-eng)
# The tests' tools: cc (the fake camera), setpriv (another user), zint (barcodes the fake camera
# shows), python3 (the lookup tests' provider server) and python3-venv (the venv of pybtex and
# rispy), groff, man, zsh and fish (the man page and
# completions), dpkg-shlibdeps (make deb), Xvfb, xdotool, xwd, netpbm and Xlib (the preview's tests).
TEST_NEEDS = $(call need-cmd,cc,gcc) $(call need-cmd,setpriv,util-linux) $(call need-cmd,zint,zint) \
  $(call need-cmd,python3,python3) $(call need-deb,python3-venv) $(call need-cmd,groff,groff-base) $(call need-cmd,mandb,man-db) $(call need-cmd,zsh,zsh) $(call need-cmd,fish,fish) \
  $(call need-cmd,dpkg-shlibdeps,dpkg-dev) $(call need-cmd,Xvfb,xvfb) $(call need-cmd,xdotool,xdotool) \
  $(call need-cmd,xwd,x11-apps) $(call need-cmd,xwdtopnm,netpbm) $(call need-file,/usr/include/X11/Xlib.h,libx11-dev)

# $(call apt-install,TARGET,NEEDS): installs what NEEDS finds missing, with apt-get.
define apt-install
@missing=""; $(2) \
if [ -n "$$missing" ]; then \
  echo "make $(1): installing$$missing"; \
  $(SUDO) apt-get update -qq && \
  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
else \
  echo "make $(1): all packages present"; \
fi
endef

deps:
	$(call apt-install,deps,$(BUILD_NEEDS))

test-deps: deps
	$(call apt-install,test-deps,$(TEST_NEEDS))
	@if ! $(TEST_PY) -c 'import pybtex, rispy' >/dev/null 2>&1; then \
	  echo "make test-deps: creating $(TEST_VENV) with $(TEST_PIP_PACKAGES)"; \
	  rm -rf $(TEST_VENV) && python3 -m venv $(TEST_VENV) && \
	  $(TEST_PY) -m pip install -q --disable-pip-version-check --retries 1 --timeout 30 $(TEST_PIP_PACKAGES); \
	fi

deb-deps:
	$(call apt-install,deb-deps,$(call need-cmd,dpkg-shlibdeps,dpkg-dev) $(call need-cmd,strip,binutils))

# try-camera: cc for the fake camera; with PREVIEW=1 and no DISPLAY, xvfb-run.
try-camera-deps:
	$(call apt-install,try-camera,$(call need-cmd,cc,gcc) $(if $(and $(PREVIEW),$(if $(DISPLAY),,1)),$(call need-cmd,xvfb-run,xvfb)))

build: deps
	$(SWIFT) build

# The tests: the test build, then Tests/run-suites.py runs the test binary once per top-level
# suite, TEST_JOBS suites at a time (one test at a time in each), its event streams in
# $(TEST_LOGS)/events; Tests/quiet-run.sh keeps the whole output in a log and prints progress,
# the counts, on a failure every line but the progress ones, and the slowest tests. VERBOSE=1
# streams the whole output too. Suites whose names end in LongTests (LONG_SUITES, a regular
# expression) are slow by nature and run in make test-long only (Documentation/testing.md says
# which tests go there). The packaging tests (make install, make deb) build a release binary:
# ISBNSCAN_PACKAGING_TESTS=1 enables them, and they start first, being the longest.
# TEST_CONFIG=release (the default) builds the tests optimised, with -enable-testing for their
# @testable imports, in a folder of their own (TEST_SCRATCH), so that neither the debug build of
# `swift build`/`swift test` nor make scan's release build is rebuilt by it; most of the tests'
# time is the decoder's, many times slower in a debug build. TEST_CONFIG=debug uses the debug
# build in .build.
TEST_LOGS := .build/test-logs
# One suite more than cores: some suites mostly wait (the fake providers' timeouts, 10,000 small
# files written), which with one suite a core would leave a core idle.
TEST_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 1 )))
TEST_CONFIG ?= release
TEST_SCRATCH := $(if $(filter release,$(TEST_CONFIG)),.build/test-release,.build)
TEST_BUILD = $(SWIFT) build --build-tests -c $(TEST_CONFIG) --scratch-path $(TEST_SCRATCH) $(if $(filter release,$(TEST_CONFIG)),-Xswiftc -enable-testing)
TEST_BINARY = $(TEST_SCRATCH)/$(TEST_CONFIG)/isbnscanPackageTests.xctest
LONG_SUITES := LongTests$$
FIRST_SUITES := ISBNScanCLITests.PackagingTests
RUN_SUITES = env ISBNSCAN_PACKAGING_TESTS=1 python3 Tests/run-suites.py --jobs $(TEST_JOBS)
CORPUS_NOTE = [ -d "$${ISBNSCAN_CORPUS:-../shared/corpus}/zxing-cpp" ] || echo "make $@: NOTE: $${ISBNSCAN_CORPUS:-../shared/corpus}/zxing-cpp is missing, so the corpus tests will fail; copy the shared corpus there or set ISBNSCAN_CORPUS (README, Tests)" >&2
test: test-deps
	@$(CORPUS_NOTE)
	@Tests/quiet-run.sh $(TEST_LOGS)/build.log "test build" $(TEST_BUILD)
	@QUIET_RUN_EVENTS=$(TEST_LOGS)/events Tests/quiet-run.sh $(TEST_LOGS)/tests.log "tests" \
	  $(RUN_SUITES) --skip-matching '$(LONG_SUITES)' $(addprefix --first ,$(FIRST_SUITES)) $(TEST_LOGS)/events $(TEST_BINARY)

test-long: test-deps
	@$(CORPUS_NOTE)
	@Tests/quiet-run.sh $(TEST_LOGS)/build.log "test build" $(TEST_BUILD)
	@QUIET_RUN_EVENTS=$(TEST_LOGS)/long-events Tests/quiet-run.sh $(TEST_LOGS)/long-tests.log "long tests" \
	  $(RUN_SUITES) --only-matching '$(LONG_SUITES)' $(TEST_LOGS)/long-events $(TEST_BINARY)

$(if $(COMMIT_STAMP),$(COMMIT_STAMP)):
	@mkdir -p $(dir $@) && rm -f $(dir $@)commit-* && touch $@

# deps is order-only: as a plain prerequisite, a phony target makes the binary always out of
# date, and swift build would run (waiting for any other build of the checkout) with nothing changed.
$(RELEASE_BIN): $(shell find Sources -type f) Package.swift $(COMMIT_STAMP) | deps
	$(SWIFT) build -c release --product isbnscan

# scan and try-camera run the binary make install installs, so that a fresh clone's Quick start
# (make install, then make try-camera or make scan) builds once.
scan: $(STATIC_BIN)
	@echo "isbnscan scan $(SCAN_FOLDERS):" >&2
	@$(STATIC_BIN) scan $(SCAN_FOLDERS); status=$$?; \
	  if [ $$status -ne 0 ] && [ $$status -ne 4 ]; then exit $$status; fi

# The camera without a webcam: the tests' fake V4L2 device (Tests/FakeV4L2, LD_PRELOAD) shows a
# book in the band; `isbnscan camera` prints its ISBN. PREVIEW=1 adds the window for 300 frames (a DISPLAY, or
# xvfb-run, which it installs when missing, and then the window's last picture in TRY_SNAPSHOT).
# FAKE_V4L2_CHROMA=neutral: the fake's chroma is far from neutral by default (for the tests of
# luminance decoding), which the window shows as a yellow picture with red bars; neutral is grey.
TRY_SNAPSHOT := .build/try-camera-preview.ppm
try-camera: try-camera-deps $(STATIC_BIN) $(FAKE_V4L2)
	@echo "isbnscan devices, with the fake camera preloaded (LD_PRELOAD=$(abspath $(FAKE_V4L2))):" >&2
	@LD_PRELOAD=$(abspath $(FAKE_V4L2)) $(STATIC_BIN) devices
	@echo "isbnscan camera$(if $(PREVIEW), --preview) on the fake camera (TestImages/roi/band-inside.png):" >&2
	@LD_PRELOAD=$(abspath $(FAKE_V4L2)) FAKE_V4L2_FRAMES=TestImages/roi/band-inside.png FAKE_V4L2_CHROMA=neutral \
	  $(if $(PREVIEW),$(if $(DISPLAY),,xvfb-run -a)) $(STATIC_BIN) camera \
	  $(if $(PREVIEW),--preview --continuous --max-frames 300 $(if $(DISPLAY),,--preview-snapshot $(TRY_SNAPSHOT)))
	@$(if $(and $(PREVIEW),$(if $(DISPLAY),,1)),echo "make try-camera: without a display the window was drawn under Xvfb; its last picture is $(TRY_SNAPSHOT) (PPM)" >&2)

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

# The per-call figure is judged on the binary make install installs (Swift runtime linked in),
# with the ordinary release build beside it.
bench: bench-deps $(RELEASE_BIN) $(STATIC_BIN)
	$(BENCH_PY) Bench/startup.py --bin $(STATIC_BIN) --bin $(RELEASE_BIN)
	$(BENCH_PY) Bench/make_photos.py --out $(BENCH_DIR)/photos --count 300 --seed 1
	$(BENCH_PY) Bench/make_photos.py --out $(BENCH_DIR)/photos-12mp --count 40 --seed 2 --size 4000x3000 --jpeg-only
	$(BENCH_PY) Bench/throughput.py --bin $(RELEASE_BIN) --photos $(BENCH_DIR)/photos --mem-photos $(BENCH_DIR)/photos-12mp
	$(BENCH_PY) Bench/make_mixed.py --out $(BENCH_DIR)/mixed --count 48 --seed 5
	$(BENCH_PY) Bench/make_sizes.py --out $(BENCH_DIR)/sizes --per-kind 2 --seed 9
	$(BENCH_PY) Bench/cost.py --bin $(RELEASE_BIN) --mixed $(BENCH_DIR)/mixed --sizes $(BENCH_DIR)/sizes --corpus $(CORPUS)

bench-accuracy: bench-deps $(RELEASE_BIN)
	$(BENCH_PY) Bench/make_hard_set.py --out $(BENCH_DIR)/hard --seed 7
	$(BENCH_PY) Bench/make_misread_set.py --out $(BENCH_DIR)/misread --seed 11
	$(BENCH_PY) Bench/make_blur_sweep.py --out $(BENCH_DIR)/blur --per-cell 16 --seed 13
	$(BENCH_PY) Bench/make_noise_set.py --out $(BENCH_DIR)/noise --count 200 --seed 17
	$(BENCH_PY) Bench/make_blur_world.py --out $(BENCH_DIR)/world --seed 19 --holdout-seed 23
	$(BENCH_PY) Bench/make_crop_set.py --out $(BENCH_DIR)/crops --per-category 8 --seed 29
	$(BENCH_PY) Bench/accuracy.py --bin $(RELEASE_BIN) --corpus $(CORPUS) --hard $(BENCH_DIR)/hard \
	  --misread $(BENCH_DIR)/misread --blur $(BENCH_DIR)/blur --noise $(BENCH_DIR)/noise \
	  --world $(BENCH_DIR)/world --crops $(BENCH_DIR)/crops \
	  $(if $(BENCH_JSON),--json-out $(BENCH_JSON))
	$(BENCH_PY) Bench/make_blur_check.py --out $(BENCH_DIR)/check-a --seed 101 --per-cell 12
	$(BENCH_PY) Bench/make_blur_check.py --out $(BENCH_DIR)/check-b --seed 103 --per-cell 12
	$(BENCH_PY) Bench/check_blur.py --bin $(RELEASE_BIN) $(BENCH_DIR)/check-a $(BENCH_DIR)/check-b
	$(BENCH_PY) Bench/make_many_books.py --out $(BENCH_DIR)/many-tune --count 16 --seed 61 --no-barcode 10 --sources $(CORPUS)
	$(BENCH_PY) Bench/make_many_books.py --out $(BENCH_DIR)/many-blind --count 16 --seed 67 --no-barcode 10 --sources $(CORPUS)
	$(BENCH_PY) Bench/many_books.py --bin $(RELEASE_BIN) --bin-label isbnscan --zxing $(BENCH_PY) \
	  $(BENCH_DIR)/many-tune $(BENCH_DIR)/many-blind
	$(text-bench)
$(FAKE_V4L2): Tests/FakeV4L2/fakev4l2.c
	@mkdir -p $(dir $@)
	cc -O2 -shared -fPIC -o $@ $< -ljpeg -lpng

# Frames come as fast as isbnscan asks (FAKE_V4L2_FPS=0). The fake rewrites a buffer only when its
# picture changes, so the time is isbnscan's: dequeue, copy of the band's luminance, zbar,
# confirmation; with --preview also the window (its own thread: a frame copy and a redraw at most
# 30 times a second), under Xvfb when there is no DISPLAY. Bench/camera.sh pins each run to CPU 0,
# the preview runs also to CPUs 0-1 (the window's thread on a core of its own).
bench-camera: bench-deps test-deps $(RELEASE_BIN) $(FAKE_V4L2)
	$(BENCH_PY) Bench/make_camera_frames.py --out $(BENCH_DIR)/camera --seed 1
	@BEFORE_BIN=$(BEFORE_BIN) Bench/camera.sh $(RELEASE_BIN) $(FAKE_V4L2) $(BENCH_FRAMES) $(BENCH_DIR)/camera
	$(BENCH_PY) Bench/make_camera_blur.py --out $(BENCH_DIR)/camblur
	$(BENCH_PY) Bench/camera_blur.py --binary $(RELEASE_BIN) --fake $(FAKE_V4L2) --sets $(BENCH_DIR)/camblur \
	  --label default --args "" $(if $(BEFORE_BIN),--label before --args "" --binary-for-label before=$(BEFORE_BIN))

# Printed ISBNs: the generated pages, the small-type lines above a covered barcode, then the corpus's
# real photos of book barcodes with the bars covered (skipped without the corpus), also through the
# plain tesseract CLI. Part of bench-accuracy too.
define text-bench
$(BENCH_PY) Bench/make_text_set.py --out $(BENCH_DIR)/text --count 100 --seed 31 --holdout-seed 37
$(BENCH_PY) Bench/make_small_type_set.py --out $(BENCH_DIR)/small --count 120 --seed 41 --blind-seed 43
$(if $(wildcard $(CORPUS)/zxing-cpp),$(BENCH_PY) Bench/make_covered_set.py --bin $(RELEASE_BIN) --corpus $(CORPUS) --out $(BENCH_DIR)/covered)
$(BENCH_PY) Bench/text_bench.py --bin $(RELEASE_BIN) --set $(BENCH_DIR)/text --small $(BENCH_DIR)/small \
  $(if $(wildcard $(CORPUS)/zxing-cpp),--covered $(BENCH_DIR)/covered --tesseract)
endef

bench-text: bench-deps $(RELEASE_BIN)
	$(text-bench)

# Concurrent catalogue writers (Bench/catalog.py: standard library only, so no bench-deps).
BENCH_CATALOG_ARGS ?=
bench-catalog: $(RELEASE_BIN)
	python3 Bench/catalog.py --bin $(RELEASE_BIN) --out $(BENCH_DIR)/catalog $(BENCH_CATALOG_ARGS)

bench-lookup: $(RELEASE_BIN)
	python3 Bench/lookup_rate.py $(RELEASE_BIN)

# deps is order-only here: `make docs` as yourself, then `sudo make install` only copies files
# (no build as root, where swift may not be on the PATH).
$(STATIC_BIN): $(shell find Sources -type f) Package.swift $(COMMIT_STAMP) | deps
	$(SWIFT) build -c release --product isbnscan --static-swift-stdlib --disable-local-rpath --scratch-path $(STATIC_DIR)

# The man page and completions, written by the binary from its own option tables.
DOCS := $(DOCS_DIR)/isbnscan.1 $(DOCS_DIR)/isbnscan.bash $(DOCS_DIR)/_isbnscan $(DOCS_DIR)/isbnscan.fish
$(DOCS) &: $(STATIC_BIN)
	@mkdir -p $(DOCS_DIR)
	$(STATIC_BIN) help --man > $(DOCS_DIR)/isbnscan.1
	$(STATIC_BIN) help --completions bash > $(DOCS_DIR)/isbnscan.bash
	$(STATIC_BIN) help --completions zsh > $(DOCS_DIR)/_isbnscan
	$(STATIC_BIN) help --completions fish > $(DOCS_DIR)/isbnscan.fish
docs: $(DOCS)

# What make install created, for make uninstall (kept at INSTALL_MANIFEST; none when empty, as
# for the .deb): each folder that did not exist before (and cat1, where man caches the formatted
# page), and the man index when mandb made it. make uninstall removes those folders once empty,
# and never one that was there before.
INSTALL_MANIFEST ?= $(PREFIX)/share/isbnscan/install-manifest
INSTALL_DIRS = $(BINDIR) $(MANDIR)/man1 $(MANDIR)/cat1 $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR) \
  $(if $(INSTALL_MANIFEST),$(patsubst %/,%,$(dir $(INSTALL_MANIFEST))))
install: $(STATIC_BIN) $(DOCS)
	@manifest="$(if $(INSTALL_MANIFEST),$(DESTDIR)$(INSTALL_MANIFEST))"; \
	  new=$$( { [ -n "$$manifest" ] && sed -n 's/^dir //p' "$$manifest" 2>/dev/null; \
	    for dir in $(INSTALL_DIRS); do \
	      d=$$dir; up=""; while [ "$$d" != / ] && [ "$$d" != . ] && [ ! -e "$(DESTDIR)$$d" ]; do up="$$d $$up"; d=$$(dirname "$$d"); done; \
	      for d in $$up; do echo "$$d"; done; \
	    done; } | awk '!seen[$$0]++'); \
	  index=$$( { [ -n "$$manifest" ] && sed -n 's/^index //p' "$$manifest" 2>/dev/null; \
	    [ -z "$(DESTDIR)" ] && [ ! -e "$(MANDIR)/index.db" ] && echo "$(MANDIR)/index.db"; } | head -1); \
	  install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(FISHCOMPDIR) && \
	  install -m 0755 $(STATIC_BIN) $(DESTDIR)$(BINDIR)/isbnscan && \
	  strip --remove-section=.comment --remove-section=.note $(DESTDIR)$(BINDIR)/isbnscan && \
	  install -m 0644 $(DOCS_DIR)/isbnscan.1 $(DESTDIR)$(MANDIR)/man1/isbnscan.1 && \
	  install -m 0644 $(DOCS_DIR)/isbnscan.bash $(DESTDIR)$(BASHCOMPDIR)/isbnscan && \
	  install -m 0644 $(DOCS_DIR)/_isbnscan $(DESTDIR)$(ZSHCOMPDIR)/_isbnscan && \
	  install -m 0644 $(DOCS_DIR)/isbnscan.fish $(DESTDIR)$(FISHCOMPDIR)/isbnscan.fish || exit 1; \
	  if [ -z "$(DESTDIR)" ] && command -v mandb >/dev/null 2>&1; then mandb -q $(MANDIR) 2>/dev/null || true; fi; \
	  [ -n "$$index" ] && [ ! -e "$$index" ] && index=""; \
	  if [ -n "$$manifest" ]; then \
	    install -d "$$(dirname "$$manifest")" && \
	    { echo "# Written by make install: what make uninstall removes (folders only when empty)."; \
	      for d in $$new; do echo "dir $$d"; done; [ -z "$$index" ] || echo "index $$index"; } > "$$manifest"; \
	  fi; \
	  echo "make install: $(DESTDIR)$(BINDIR)/isbnscan, its man page and completions$${manifest:+; make uninstall PREFIX=$(PREFIX)$(if $(DESTDIR), DESTDIR=$(DESTDIR)) removes them}"

# The package's files are `make install PREFIX=/usr` into .build/deb/debian/isbnscan; Packaging/deb.sh adds
# the copyright file, the gzipped man page, DEBIAN/control (Depends from dpkg-shlibdeps).
DEB_DIR := .build/deb
# Maintainer: DEB_MAINTAINER, else DEBFULLNAME and DEBEMAIL as for dch, else the git identity
# (user.name, user.email) of whoever builds it; deb.sh refuses a name or address Debian rejects.
GIT_EMAIL = $(shell git config user.email 2>/dev/null)
DEB_MAINTAINER ?= $(if $(DEBEMAIL),$(DEBFULLNAME) <$(DEBEMAIL)>,$(if $(GIT_EMAIL),$(shell git config user.name 2>/dev/null) <$(GIT_EMAIL)>))
deb-maintainer:
	@Packaging/deb.sh --check-maintainer "$(DEB_MAINTAINER)"
deb: deb-deps deb-maintainer $(STATIC_BIN) $(DOCS)
	rm -rf $(DEB_DIR)/debian
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(CURDIR)/$(DEB_DIR)/debian/isbnscan INSTALL_MANIFEST=
	Packaging/deb.sh $(DEB_DIR) "$(DEB_MAINTAINER)"

# The files, the page man formatted into cat1, the man index's entry (mandb), then what the
# manifest says make install created: the index if no other page is left, and each folder if empty.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED)) $(DESTDIR)$(MANDIR)/cat1/isbnscan.1 $(DESTDIR)$(MANDIR)/cat1/isbnscan.1.gz
	@if [ -z "$(DESTDIR)" ] && command -v mandb >/dev/null 2>&1; then mandb -q $(MANDIR) 2>/dev/null || true; fi; \
	  manifest="$(if $(INSTALL_MANIFEST),$(DESTDIR)$(INSTALL_MANIFEST))"; \
	  if [ -z "$$manifest" ] || [ ! -f "$$manifest" ]; then \
	    echo "make uninstall: no $${manifest:-INSTALL_MANIFEST} (make install wrote none), so no folder is removed"; exit 0; fi; \
	  dirs=$$(sed -n 's/^dir //p' "$$manifest" | tac); index=$$(sed -n 's/^index //p' "$$manifest"); \
	  rm -f "$$manifest"; \
	  if [ -n "$$index" ] && [ -z "$$(find $(DESTDIR)$(MANDIR) -type f ! -name index.db 2>/dev/null | head -1)" ]; then \
	    rm -f "$$index"; fi; \
	  for d in $$dirs; do rmdir "$(DESTDIR)$$d" 2>/dev/null || true; done

ranges-source:
	python3 Sources/ISBN/Resources/bundle.py Sources/ISBN/Resources/RangeMessage.xml > Sources/ISBN/BundledRangeMessage.swift.new
	mv Sources/ISBN/BundledRangeMessage.swift.new Sources/ISBN/BundledRangeMessage.swift

# Fuzzing. The C shims are built with clang straight from their sources; the Swift target is its
# own product (Package.swift adds it when ISBNSCAN_FUZZ is set), built in .build/fuzz with the
# flags that give Swift code coverage under Swift 6.3 (SwiftPM's --sanitize alone does not).
FUZZ_SECONDS ?= 60
FUZZ_DIR := .build/fuzz-c
FUZZ_CORPUS := .build/fuzz-corpus
FUZZ_C_TARGETS := png:png jpeg:jpg mjpeg:jpg exif:jpg tiff:tif webp:webp gif:gif heif:heic bmp:bmp
FUZZ_LIBS := -lpng -ldeflate -ljpeg -lexif -ltiff -lwebpdemux -lwebp -lgif -lheif
FUZZ_FLAGS = -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 -print_final_stats=1

fuzz: deps
	@mkdir -p $(FUZZ_DIR) Fuzz/findings
	@for pair in $(FUZZ_C_TARGETS); do \
	  name=$${pair%%:*}; ext=$${pair#*:}; upper=$$(echo $$name | tr a-z A-Z); \
	  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DFUZZ_$$upper \
	    -ISources/CCodecs/include -ISources/CCodecs -ISources/CLoader/include $$(pkg-config --cflags libheif) \
	    Fuzz/fuzz_codec.c Sources/CCodecs/*.c Sources/CLoader/cloader.c -o $(FUZZ_DIR)/fuzz-$$name $(FUZZ_LIBS) 2>/dev/null || exit 1; \
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
	  w('roi', b'\x020.05,0.4,0.9,0.15'); w('isbn', b'\x03ISBN 978-0-306-40615-7'); \
	  w('map', bytes([4, 112]) + bytes(([30] * 3 + [220] * 2 + [30] + [220] * 3) * 14 + [220] * 2) * 64); \
	  import glob, os; p = 'Tests/ProviderServer/'; \
	  [w('openlibrary-' + os.path.basename(f), b'\x05{\"ISBN:' + os.path.basename(f)[:13].encode() + b'\": ' + open(f, 'rb').read() + b'}') for f in glob.glob(p + 'openlibrary/*')]; \
	  [w('google-' + os.path.basename(f), b'\x06' + open(f, 'rb').read()) for f in glob.glob(p + 'google/*')]; \
	  [w('ndl-' + os.path.basename(f), b'\x07' + open(f, 'rb').read()) for f in glob.glob(p + 'ndl/*')]"
	@.build/fuzz/release/isbnscan-fuzz $(FUZZ_FLAGS) -artifact_prefix=Fuzz/findings/swift- $(FUZZ_CORPUS)/swift \
	  > $(FUZZ_DIR)/swift.log 2>&1; status=$$?; \
	  echo "fuzz swift: $$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $(FUZZ_DIR)/swift.log), exit $$status"
	@ls Fuzz/findings 2>/dev/null | grep . && echo "make fuzz: findings above (Fuzz/findings/); logs in $(FUZZ_DIR)" || echo "make fuzz: no findings"

clean:
	$(SWIFT) package clean
	rm -rf .build
