#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Turns a tree installed with `make install DESTDIR=DIR/debian/isbnscan PREFIX=/usr` into a
# Debian package:
#   Packaging/deb.sh DIR MAINTAINER
#   Packaging/deb.sh --check-maintainer MAINTAINER   (make deb, before it builds anything)
# Adds the copyright file and a changelog entry, gzips the man page (gzip -9n, no time stamp), writes DEBIAN/control
# (Depends from dpkg-shlibdeps and libsqlite3-0, Recommends for the other libraries opened on demand, Installed-Size in KiB) and DEBIAN/md5sums, then builds
# OUTDIR/isbnscan_<version>_<arch>.deb with dpkg-deb, files owned by root. Prints its path.
set -eu
outdir=$1 maintainer=$2
root=$outdir/debian/isbnscan
here=$(cd "$(dirname "$0")" && pwd)

# Debian rejects a Maintainer without a name or with an address whose host is no domain (lintian:
# bogus-mail-host, e.g. a user@localhost placeholder): refuse it.
case $maintainer in
  *' <'?*'@'*'.'*'>') host=${maintainer##*@}; host=${host%>}; name=${maintainer%% <*} ;;
  *) host="" name="" ;;
esac
if [ -z "$name" ] || ! printf '%s\n' "$host" | grep -Eqx '([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?'; then
  echo "deb.sh: the package needs a maintainer 'Name <address@domain>'${maintainer:+, not '$maintainer'}:" \
       "give DEB_MAINTAINER='Your Name <you@example.org>' (or DEBFULLNAME and DEBEMAIL, or git config user.name and user.email)" >&2
  exit 1
fi
[ "$outdir" != --check-maintainer ] || exit 0

# `isbnscan 0.2.0` or `isbnscan 0.2.0 (commit …)`: the version is the second word.
version=$(env -i "$root/usr/bin/isbnscan" --version | sed -n 's/^isbnscan \([^ ]*\).*/\1/p')
[ -n "$version" ] || { echo "deb.sh: $root/usr/bin/isbnscan --version printed no version" >&2; exit 1; }
arch=$(dpkg --print-architecture)

install -D -m 0644 "$here/copyright" "$root/usr/share/doc/isbnscan/copyright"
# A native package's changelog, in Debian's format: one entry for this version, dated by the
# last commit (so that two builds of one commit are the same).
if commit=$(git -C "$here" log -1 --format='%h' 2>/dev/null) && [ -n "$commit" ]; then
  date=$(git -C "$here" log -1 --format='%aD')
  note="Built from commit $commit; the git history has the changes."
else
  date=$(date -R)
  note="Built outside a git checkout."
fi
cat > "$root/usr/share/doc/isbnscan/changelog" <<CHANGELOG
isbnscan ($version) unstable; urgency=medium

  * $note

 -- $maintainer  $date
CHANGELOG
gzip -9nf "$root/usr/share/doc/isbnscan/changelog"
gzip -9nf "$root/usr/share/man/man1/isbnscan.1"

# dpkg-shlibdeps runs where debian/control is, on binaries under debian/<package>/ (found by its
# DEBIAN folder): give it a minimal control file beside the root.
rm -rf "$root/DEBIAN"
mkdir -m 0755 "$root/DEBIAN"
printf 'Source: isbnscan\n\nPackage: isbnscan\nArchitecture: any\n' > "$outdir/debian/control"
depends=$(cd "$outdir" && dpkg-shlibdeps -O -edebian/isbnscan/usr/bin/isbnscan | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# Opened with dlopen when first needed (Sources/CLoader), so dpkg-shlibdeps cannot see them: SQLite
# for the catalogue (--db, catalog: a core feature, so a dependency); SDL2 for camera --preview,
# libheif for HEIF/AVIF photos, libtiff for TIFF scans, libcurl, json-c and libxml2 for the book lookup,
# Tesseract and its English data for scan --text. Everything else works without the recommended ones.
depends="$depends, libsqlite3-0"
recommends="libsdl2-2.0-0, libheif1, libtiff6, libcurl4, libjson-c5, libxml2, libtesseract5, tesseract-ocr-eng"

chmod -R u+rwX,go+rX,go-w "$root"
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: isbnscan
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Section: utils
Priority: optional
Description: read book barcodes (EAN-13 ISBNs) from photos, scans and webcams
 isbnscan finds the EAN-13 barcode on the back of a book in a photo, a scan or
 a V4L2 webcam stream (zbar, plus recovery passes and a line decoder of its
 own), checks that it is a valid ISBN-13 (13 digits, prefix 978, check digit)
 and prints it as text, JSON Lines or CSV. Folders are scanned in parallel;
 --files-from and --shard split a batch over many machines.
CONTROL
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$outdir"
deb="$outdir/isbnscan_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb" >&2
echo "$deb"
