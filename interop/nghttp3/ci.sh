#!/usr/bin/env bash
# CI for interop/nghttp3, called by the repository's .ci/run: differential
# tests of qpack against the QPACK codec of libnghttp3 (through cgo), in
# both directions, and the QPACK offline-interop corpus (../shared/qifs)
# encoded by qpack and decoded by nghttp3. It installs libnghttp3-dev (and a C toolchain and
# pkg-config where missing) on a fresh Debian machine, then runs gofmt,
# go vet with and without the nghttp3 build tag, the tests without the tag
# (they must build and skip), and the tests with it, also under
# GOEXPERIMENT=cgocheck2, which checks the wrapper's cgo pointer passing.
#
# Without libnghttp3 this fails, unless NGHTTP3_OPTIONAL=1, which runs
# only what needs no library and says so.
set -euo pipefail
cd "$(dirname "$0")"

export GOFLAGS="${GOFLAGS:--buildvcs=false}"
export CGO_ENABLED=1

have_lib() { command -v pkg-config >/dev/null && pkg-config --exists libnghttp3 && command -v "${CC:-gcc}" >/dev/null; }

echo "== nghttp3: libnghttp3-dev"
if ! have_lib; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnghttp3-dev pkg-config gcc libc6-dev >/dev/null); then
      echo "apt-get install libnghttp3-dev pkg-config gcc libc6-dev failed"
    fi
  else
    echo "not root or no apt-get: not installing libnghttp3-dev"
  fi
fi
lib=yes
if ! have_lib; then
  if [ "${NGHTTP3_OPTIONAL:-0}" = 1 ]; then
    echo "libnghttp3 (pkg-config libnghttp3) or a C compiler is missing: NGHTTP3_OPTIONAL=1, so the differential tests are SKIPPED"
    lib=
  else
    echo "libnghttp3 (pkg-config libnghttp3) or a C compiler is missing; set NGHTTP3_OPTIONAL=1 to skip the differential tests"
    exit 1
  fi
else
  echo "libnghttp3 $(pkg-config --modversion libnghttp3)"
fi

echo "== nghttp3: gofmt, vet"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
if [ -n "$lib" ]; then
  go vet -tags nghttp3 ./...
fi

echo "== nghttp3: go test without the tag (must skip)"
go test -count=1 ./...

if [ -n "$lib" ]; then
  echo "== nghttp3: differential tests"
  go test -tags nghttp3 -count=1 ./...
  echo "== nghttp3: differential tests under GOEXPERIMENT=cgocheck2"
  GOEXPERIMENT=cgocheck2 go test -tags nghttp3 -count=1 ./...
fi
