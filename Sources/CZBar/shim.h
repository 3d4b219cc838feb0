// SPDX-License-Identifier: Apache-2.0
#ifndef ISBNSCAN_CZBAR_SHIM_H
#define ISBNSCAN_CZBAR_SHIM_H
#include <zbar.h>

/// zbar_fourcc() is a macro; Swift cannot see it. 'Y800' = 8-bit luminance.
static inline unsigned long isbnscan_fourcc_y800(void) {
    return zbar_fourcc('Y', '8', '0', '0');
}
#endif
