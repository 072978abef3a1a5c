#!/usr/bin/env bash
# Debian packages Proctor's sandbox display, its tests and its demo tasks use. Safe to run again.
set -euo pipefail
pkgs=(xvfb openbox xdotool x11-utils x11-xserver-utils imagemagick chromium xclip xsel sqlite3 mousepad
      dbus-x11 at-spi2-core xterm fonts-dejavu-core fonts-noto-cjk bubblewrap util-linux redis-server
      libreoffice-calc libreoffice-writer libreoffice-impress libreoffice-draw libreoffice-gtk3
      ffmpeg tesseract-ocr tesseract-ocr-eng vlc-bin vlc-plugin-base vlc-plugin-qt sakura gimp thunderbird
      calibre python3-uno zip)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then echo "system packages: all present"; exit 0; fi
echo "system packages: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "system packages: done"
