#!/usr/bin/env bash
# Makes (or refreshes) the end-to-end tests' Python environment in .venv-e2e from Tests/e2e/requirements.txt
# (also the browser tests', the browser benchmark's and `make conformance`'s: selenium and kosoku are pinned there).
#
#   scripts/e2e-venv.sh        (make test runs it)
#
# Idempotent and quiet: pip runs only when the requirements changed since the last install (their hash is kept
# in the venv), so repeated `make test` runs cost nothing here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv=.venv-e2e
requirements=Tests/e2e/requirements.txt
stamp="${venv}/.requirements.sha256"

if [ ! -x "${venv}/bin/python" ]; then
    python3 -m venv "${venv}"
fi
wanted="$(sha256sum "${requirements}" | cut -d' ' -f1)"
if [ "$(cat "${stamp}" 2>/dev/null || true)" != "${wanted}" ]; then
    "${venv}/bin/pip" install --quiet --disable-pip-version-check -r "${requirements}"
    echo "${wanted}" > "${stamp}"
    echo "e2e-venv: installed $(grep -v '^#' "${requirements}" | tr '\n' ' ')"
fi
