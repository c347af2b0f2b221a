#!/usr/bin/env bash
# Renders the hicolor PNG sizes from the scalable icon (needs rsvg-convert: apt-get install librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256; do
  mkdir -p "hicolor/${size}x${size}/apps"
  rsvg-convert -w "$size" -h "$size" hicolor/scalable/apps/org.herald.Herald.svg -o "hicolor/${size}x${size}/apps/org.herald.Herald.png"
done
