// SPDX-License-Identifier: Apache-2.0
#include "ccodecs.h"
#include <libexif/exif-data.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t exif_header[6] = {'E', 'x', 'i', 'f', 0, 0};

int isc_exif_orientation(const uint8_t *data, size_t size) {
    if (data == NULL || size < 8 || size > 16u * 1024u * 1024u) return 0;
    /* libexif's exif_data_load_data wants the "Exif\0\0" header (or JPEG markers). */
    uint8_t *owned = NULL;
    const uint8_t *block = data;
    size_t length = size;
    if (memcmp(data, exif_header, 6) != 0) {
        owned = malloc(size + 6);
        if (owned == NULL) return 0;
        memcpy(owned, exif_header, 6);
        memcpy(owned + 6, data, size);
        block = owned;
        length = size + 6;
    }
    int orientation = 0;
    ExifData *ed = exif_data_new();
    if (ed != NULL) {
        exif_data_unset_option(ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
        exif_data_load_data(ed, block, (unsigned int)length);
        ExifEntry *entry = exif_content_get_entry(ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
        if (entry != NULL && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1
            && entry->data != NULL && entry->size >= 2) {
            ExifShort value = exif_get_short(entry->data, exif_data_get_byte_order(ed));
            if (value >= 1 && value <= 8) orientation = value;
        }
        exif_data_unref(ed);
    }
    free(owned);
    return orientation;
}
