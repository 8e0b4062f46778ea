#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML report's front end bundle, web/dist/report-bundle.html, is
# generated and committed so that the C tool builds offline without Node.
#
#   scripts/web-bundle.sh            npm ci (pinned by web/package-lock.json),
#                                    then regenerate web/dist/report-bundle.html
#   scripts/web-bundle.sh --check F  rebuild into F (outside the source tree)
#                                    and compare with the committed bundle:
#                                    exit 0 same, 1 differs, 77 (SKIP) when
#                                    node or the pinned packages are missing
set -eu
web="$(cd "$(dirname "$0")/../web" && pwd)"
if [ "${1:-}" = "--check" ]; then
  out=${2:?usage: web-bundle.sh --check OUTFILE}
  if ! command -v node >/dev/null 2>&1 || [ ! -f "$web/node_modules/.package-lock.json" ]; then
    echo "SKIP: node or web/node_modules (npm ci, scripts/setup.sh) missing: bundle not checked"
    exit 77
  fi
  (cd "$web" && node build.mjs "$out")
  if cmp -s "$out" "$web/dist/report-bundle.html"; then
    echo "web/dist/report-bundle.html is up to date with web/src and the lockfile"
    exit 0
  fi
  echo "web/dist/report-bundle.html is stale: run scripts/web-bundle.sh and commit it" >&2
  exit 1
fi
(cd "$web" && npm ci --no-audit --no-fund --loglevel=error && node build.mjs dist/report-bundle.html)
echo "web/dist/report-bundle.html regenerated ($(wc -c <"$web/dist/report-bundle.html") bytes)"
