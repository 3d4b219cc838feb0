# isbnscan — targets:
#   make deps    install the Debian packages the build and tests need (only what pkg-config lacks)
#   make build   debug build
#   make test    deps, then `swift test` (all test suites)
#   make scan    deps, release build, then scan the bundled test images (the main job)
#   make clean   remove build products
# Set SUDO=sudo when not running as root.

SWIFT ?= swift
SUDO ?=
RELEASE_BIN := .build/release/isbnscan

# pkg-config module → Debian package that provides it.
PKG_MODULES := zbar:libzbar-dev libpng16:libpng-dev libjpeg:libjpeg62-turbo-dev libexif:libexif-dev

# Folders `make scan` reads (their .txt answers are skipped as non-images).
SCAN_FOLDERS := TestImages/isbn TestImages/exif TestImages/roi TestImages/rejected

.PHONY: deps build test scan clean

deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	for pair in $(PKG_MODULES); do \
	  module=$${pair%%:*}; package=$${pair#*:}; \
	  pkg-config --exists $$module 2>/dev/null || missing="$$missing $$package"; \
	done; \
	command -v setpriv >/dev/null 2>&1 || missing="$$missing util-linux"; \
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

clean:
	$(SWIFT) package clean
	rm -rf .build
