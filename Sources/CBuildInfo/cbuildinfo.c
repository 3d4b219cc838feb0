// SPDX-License-Identifier: Apache-2.0
// A C target because a Swift setting can define a condition but not a value: Package.swift
// defines ISBNSCAN_COMMIT for this file alone, so a new commit recompiles one file and relinks.
#include "cbuildinfo.h"

#ifndef ISBNSCAN_COMMIT
#define ISBNSCAN_COMMIT ""
#endif

const char *isc_build_commit(void) { return ISBNSCAN_COMMIT; }
