#!/usr/bin/env bash
# Makes the two embedded fonts: DejaVu Sans and DejaVu Sans Bold cut down to the
# characters the pictures write (printable ASCII, × ÷ − – — ’ …), without hinting
# or layout tables (the renderer places glyphs by their advance widths alone).
# Needs Debian's fonts-dejavu-core and fonttools' pyftsubset (pip install fonttools).
set -euo pipefail
cd "$(dirname "$0")"
for face in DejaVuSans DejaVuSans-Bold; do
  pyftsubset "/usr/share/fonts/truetype/dejavu/$face.ttf" \
    --unicodes="U+0020-007E,U+00D7,U+00F7,U+2212,U+2013,U+2014,U+2019,U+2026" \
    --output-file="$face-subset.ttf" --no-hinting --desubroutinize \
    --layout-features='' --drop-tables+=GPOS,GSUB,GDEF,MATH,kern,FFTM
done
