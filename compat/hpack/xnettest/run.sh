#!/usr/bin/env bash
# Runs x/net's hpack tests, ported to the drop-in compat/hpack, verbosely,
# and keeps the ported module for reading in the directory given as the
# first argument (default: a new temporary directory). Extra arguments go
# to go test, e.g. -tags purego.
set -euo pipefail
cd "$(dirname "$0")"
keep=${1:-$(mktemp -d)}
shift || true
XNETTEST_KEEP="$keep" go test -count=1 -v -run '^(TestXnetPortedTests|TestPorter)$' "$@" .
echo "ported module kept in $keep"
