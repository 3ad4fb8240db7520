#!/usr/bin/env bash
# Debian packages the test suite needs (Chromium for the tablet browser test). Installs only what
# is missing, and only when it can (root with apt-get); otherwise it says what to install and the
# tests that need it skip with that reason.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${need[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "note: please install ${need[*]} (Debian: sudo apt-get install ${need[*]}); browser tests will skip" >&2
fi
