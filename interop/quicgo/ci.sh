#!/usr/bin/env bash
# CI for interop/quicgo, called by the repository's .ci/run: differential
# tests of qpack against github.com/quic-go/qpack v0.6.0 (static table
# only) in both directions, on the QPACK offline-interop corpus in
# ../shared/qifs and on seeded random header lists, then one pass of each
# BenchmarkStatic sub-benchmark, which checks both codecs' output against
# the corpus before timing. quic-go/qpack is pure Go and comes from the Go
# module proxy: no C library is needed. It runs gofmt, go vet, staticcheck
# (v0.8.2, as the repository's CI), the tests and the benchmarks once.
set -euo pipefail
cd "$(dirname "$0")"

export GOFLAGS="${GOFLAGS:--buildvcs=false}"

echo "== quicgo: gofmt, vet, staticcheck"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

echo "== quicgo: differential tests against quic-go/qpack"
go test -count=1 ./...

echo "== quicgo: BenchmarkStatic, one pass each"
go test -count=1 -run '^$' -bench '^BenchmarkStatic$' -benchtime 1x ./...
