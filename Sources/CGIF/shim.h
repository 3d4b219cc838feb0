// SPDX-License-Identifier: Apache-2.0
#include <gif_lib.h>
