#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, when they are missing.
# Safe to run repeatedly: it does nothing when everything is present.
set -euo pipefail

missing=()
pkg-config --exists liblz4 2>/dev/null || missing+=(liblz4-dev)
command -v lz4 >/dev/null 2>&1 || missing+=(lz4)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libcrypto 2>/dev/null || missing+=(libssl-dev)
# Headless Chromium renders the HTML report in `make report-check`.
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# The replay executable links Foundation statically, and with it the system's libcurl.
ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 ' || missing+=(libcurl4)
# The replay executable allocates with jemalloc on Linux (Package.swift, replay-main).
ldconfig -p 2>/dev/null | grep -q 'libjemalloc\.so\.2 ' || missing+=(libjemalloc2)
# The layer check (scripts/layers-check.py) and the fleet check run on Python 3.
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# The completion tests load `replay completion zsh` in zsh.
command -v zsh >/dev/null 2>&1 || missing+=(zsh)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "installing missing packages: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "error: please install: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
