// SPDX-License-Identifier: Apache-2.0
#include <libexif/exif-data.h>
