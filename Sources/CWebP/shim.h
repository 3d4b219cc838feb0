// SPDX-License-Identifier: Apache-2.0
#include <webp/decode.h>
#include <webp/demux.h>
