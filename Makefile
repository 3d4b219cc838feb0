# isbnscan — targets:
#   make deps    install the Debian packages the build and tests need (only what is missing;
#                V4L2 needs only the kernel headers; the tests compile the fake camera with cc)
#   make build   debug build
#   make test    deps, then `swift test` (all test suites)
#   make scan    deps, release build, then scan the bundled test images (the main job)
#   make bench-camera  release build, then `isbnscan camera` on the fake V4L2 device (tests/
#                one core): frames/s at 1280x720 YUYV with the band region of interest
#   make clean   remove build products
# Set SUDO=sudo when not running as root.

SWIFT ?= swift
SUDO ?=
RELEASE_BIN := .build/release/isbnscan

# pkg-config module → Debian package that provides it.
PKG_MODULES := zbar:libzbar-dev libpng16:libpng-dev libjpeg:libjpeg62-turbo-dev libexif:libexif-dev

# Images `make scan` reads: everything in these folders but the .txt answers.
SCAN_IMAGES := $(filter-out %.txt,$(sort $(wildcard TestImages/isbn/* TestImages/exif/* TestImages/roi/* TestImages/rejected/*)))

# The fake V4L2 device of the tests (Tests/FakeV4L2), for bench-camera.
FAKE_V4L2 := .build/fakev4l2/libfakev4l2.so
BENCH_FRAMES ?= 3000

.PHONY: deps build test scan bench-camera clean

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
	@echo "isbnscan scan $(words $(SCAN_IMAGES)) test images:" >&2
	@$(RELEASE_BIN) scan $(SCAN_IMAGES); status=$$?; \
	  if [ $$status -ne 0 ] && [ $$status -ne 4 ]; then exit $$status; fi

$(FAKE_V4L2): Tests/FakeV4L2/fakev4l2.c
	@mkdir -p $(dir $@)
	cc -O2 -shared -fPIC -o $@ $< -ljpeg -lpng

# Frames come as fast as isbnscan asks (FAKE_V4L2_FPS=0); the process is pinned to CPU 0.
# The fake rewrites a buffer only when its picture changes, so the time is isbnscan's:
# dequeue, copy of the band's luminance, zbar, confirmation.
bench-camera: $(RELEASE_BIN) $(FAKE_V4L2)
	@echo "isbnscan camera, $(BENCH_FRAMES) frames, 1280x720 YUYV, --roi 0.05,0.4,0.9,0.15, one core:" >&2
	@for case in "book in the band:TestImages/roi/band-inside.png" "no book:blank"; do 	  label=$${case%%:*}; frames=$${case#*:}; 	  line=$$(LD_PRELOAD=$(FAKE_V4L2) FAKE_V4L2_FRAMES=$$frames FAKE_V4L2_FPS=0 FAKE_V4L2_FORMATS=YUYV 	    FAKE_V4L2_SIZES=1280x720 taskset -c 0 $(RELEASE_BIN) camera --size 1280x720 --format YUYV 	    --roi 0.05,0.4,0.9,0.15 --continuous --max-frames $(BENCH_FRAMES) 2>&1 >/dev/null | tail -n 1); 	  echo "  $$label: $${line#camera: }"; 	done

clean:
	$(SWIFT) package clean
	rm -rf .build
