#!/usr/bin/env bash
# Installs what building and testing Keyscope needs on Debian/Ubuntu, and only what is missing.
#
#   scripts/install-deps.sh        (or: make deps)
#
# Quiet and idempotent: when everything is present it prints one line and changes nothing. It runs
# `apt-get update` only when something must be installed, uses apt-get directly as root, `sudo -n` otherwise,
# and never prompts. Add packages to DEBIAN_PACKAGES below (one place) when a feature needs them.
set -euo pipefail

# Debian packages the project needs, space-separated. libwebsockets and jansson are the C libraries behind the
# inspector's server; pkg-config is how SwiftPM finds them; python3 with venv and pip runs the end-to-end tests
# (their Python packages come from PyPI into .venv-e2e, see scripts/e2e-venv.sh); chromium and chromium-driver
# run the dashboard's browser tests and benchmarks headless (Tests/e2e/browser, Benchmarks/browser); libsecret is
# the Secret Service client behind the secrets backend, tested against a real gnome-keyring-daemon started inside
# dbus-run-session (dbus-daemon); hiredis is the Redis client behind the Redis backend storage, and redis-server
# is the real server its tests start on a loopback port of their own (docs/fleet.md).
DEBIAN_PACKAGES="libwebsockets-dev libjansson-dev libhiredis-dev redis-server libsecret-1-dev gnome-keyring dbus-daemon pkg-config python3 python3-venv python3-pip chromium chromium-driver nodejs"

say() { printf 'install-deps: %s\n' "$*"; }
fail() { printf 'install-deps: %s\n' "$*" >&2; exit 1; }

if ! command -v swift >/dev/null 2>&1; then
    fail "swift is not on PATH. Install Swift 6.x (https://www.swift.org/install/) and put its usr/bin on PATH."
fi

if ! command -v dpkg >/dev/null 2>&1; then
    fail "this script needs dpkg and apt-get (Debian or Ubuntu). Install by hand: ${DEBIAN_PACKAGES}"
fi

missing=()
for package in ${DEBIAN_PACKAGES}; do
    # `dpkg -s` also succeeds for removed-but-not-purged packages, so read its Status line.
    if ! dpkg -s "${package}" 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing+=("${package}")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    say "all dependencies present (swift, ${DEBIAN_PACKAGES// /, })"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    apt=(apt-get)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    apt=(sudo -n apt-get)
else
    fail "missing Debian packages: ${missing[*]}. Not root, and sudo is absent or needs a password; install by hand:
    sudo apt-get update && sudo apt-get install -y ${missing[*]}"
fi

say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes
"${apt[@]}" update -qq
"${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
say "installed ${missing[*]}"
