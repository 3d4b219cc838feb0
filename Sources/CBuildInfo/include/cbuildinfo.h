// SPDX-License-Identifier: Apache-2.0
#ifndef ISBNSCAN_CBUILDINFO_H
#define ISBNSCAN_CBUILDINFO_H

/// The git commit the binary was built from, as `git describe --always --abbrev=12
/// --dirty=-modified` gives it ("402a2df521b3", "402a2df521b3-modified"), or "" when it was
/// built outside a git checkout or without make (Package.swift takes it from ISBNSCAN_COMMIT).
const char *isc_build_commit(void);

#endif
