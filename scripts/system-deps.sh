#!/usr/bin/env bash
# Debian packages the test suite needs (Chromium for the tablet browser test; PostgreSQL's initdb and
# pg_ctl for the store's PostgreSQL tests, which start a throwaway server). Installs only what is
# missing, and only when it can (root with apt-get); otherwise it says what to install and the tests
# that need it skip with that reason. Debian keeps the PostgreSQL binaries off PATH, in
# /usr/lib/postgresql/<version>/bin, so look there too.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
have_initdb() {
  command -v initdb >/dev/null 2>&1 && return 0
  local bin
  for bin in /usr/lib/postgresql/*/bin/initdb /usr/local/bin/initdb /usr/local/pgsql/bin/initdb; do
    [ -x "$bin" ] && return 0
  done
  return 1
}
have_initdb || need+=(postgresql)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${need[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "note: please install ${need[*]} (Debian: sudo apt-get install ${need[*]}); browser and PostgreSQL tests will skip" >&2
fi
