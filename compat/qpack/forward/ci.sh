#!/usr/bin/env bash
# CI for the forwarding module github.com/quic-go/qpack (compat/qpack/forward),
# called by the repository's .ci/run. It checks the drop-in the way a user
# adopts it:
#   1. quic-go/qpack v0.6.0's own tests, copied from the module cache at
#      test time into a copy of this module, with shims for the few
#      unexported helpers they call (porttest/shims_test.go.txt);
#      static_table_test.go is left out: it tests quic-go/qpack's own
#      encoder map against its own table, neither of which the drop-in has;
#   2. quic-go v0.65.0's ./http3/... tests, unmodified, on stock quic-go and
#      on quic-go whose go.mod replaces github.com/quic-go/qpack with this
#      module (the two replace lines of the README). Every test that passes
#      stock must pass on the drop-in; a failure is rerun alone up to 3 times.
# Nothing is written into the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
qpack_version=v0.6.0
quicgo_version=v0.65.0

echo "== forward: gofmt, vet, staticcheck"
cd "$here"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

work=$(mktemp -d "${TMPDIR:-/tmp}/metapack-forward.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

moddir() { go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'; }

echo "== forward: quic-go/qpack $qpack_version's own tests on the drop-in"
src=$(moddir github.com/quic-go/qpack "$qpack_version")
[ -d "$src" ] || { echo "cannot fetch github.com/quic-go/qpack@$qpack_version"; exit 1; }
port="$work/port"
# Skipped, for the two differences compat/qpack's package doc lists:
#  - TestEncodeFieldsWithNameReferenceInStaticTable requires every literal
#    Huffman-coded; the drop-in sends ":status: 666" as a plain literal,
#    which is as short (RFC 7541 §5.2 lets the encoder choose);
#  - TestEncoderEncodesAllFieldsOfStaticTable requires every static entry
#    as an Indexed Field Line; the drop-in sends the credentials among
#    them ("authorization" and "cookie" with empty values) as literals with
#    the N bit set (RFC 9204 §4.5.4, §7.1).
# quic-go/qpack's decoder reads both (interop/quicgo's TestDropInInterop).
port_skip='^(TestEncodeFieldsWithNameReferenceInStaticTable|TestEncoderEncodesAllFieldsOfStaticTable)$'
mkdir -p "$port"
cp "$here/go.mod" "$here/forward.go" "$port/"
for f in decoder_test.go encoder_test.go header_field_test.go qpack_test.go; do
  cp "$src/$f" "$port/$f"
done
cp "$here/porttest/shims_test.go.txt" "$port/shims_test.go"
chmod -R u+w "$port"
(
  cd "$port"
  go mod edit -replace "github.com/metapack/metapack=$repo"
  go mod edit -require github.com/stretchr/testify@v1.9.0
  GOFLAGS=-mod=mod go mod tidy
  go test -count=1 -json -skip "$port_skip" . > "$work/port.json" || true
)
passed=$(grep -c '"Action":"pass","Package":"github.com/quic-go/qpack","Test":"[^/"]*"' "$work/port.json" || true)
failed=$(grep -c '"Action":"fail","Package":"github.com/quic-go/qpack","Test":"[^/"]*"' "$work/port.json" || true)
echo "quic-go/qpack's tests on the drop-in: $passed passed, $failed failed (static_table_test.go left out)"
if [ "$failed" != 0 ] || [ "$passed" = 0 ] || ! grep -q '"Action":"pass","Package":"github.com/quic-go/qpack","Elapsed"' "$work/port.json"; then
  grep -h '"Action":"output"' "$work/port.json" | sed 's/.*"Output":"\(.*\)"}$/\1/' | grep -v '^=== ' | head -60
  exit 1
fi

echo "== forward: quic-go $quicgo_version ./http3/... on stock and on the drop-in"
qsrc=$(moddir github.com/quic-go/quic-go "$quicgo_version")
[ -d "$qsrc" ] || { echo "cannot fetch github.com/quic-go/quic-go@$quicgo_version"; exit 1; }
for tree in stock dropin; do
  cp -r "$qsrc" "$work/$tree"
  chmod -R u+w "$work/$tree"
done
(
  cd "$work/dropin"
  go mod edit -replace "github.com/quic-go/qpack=$here" -replace "github.com/metapack/metapack=$repo"
  GOFLAGS=-mod=mod go mod tidy
  got=$(go list -m -f '{{.Replace.Dir}}' github.com/quic-go/qpack)
  [ "$got" = "$here" ] || { echo "quic-go's github.com/quic-go/qpack resolves to '$got', not the drop-in"; exit 1; }
)
results() { # the top-level tests that passed (pass) or failed (fail) in a -json log
  sed -n "s/.*\"Action\":\"$2\",\"Package\":\"\([^\"]*\)\",\"Test\":\"\([^/\"]*\)\".*/\1 \2/p" "$1" | sort -u
}
for tree in stock dropin; do
  (cd "$work/$tree" && go test -count=1 -json ./http3/... > "$work/$tree.json" || true)
done
results "$work/stock.json" pass > "$work/stock.pass"
results "$work/dropin.json" pass > "$work/dropin.pass"
comm -23 "$work/stock.pass" "$work/dropin.pass" > "$work/regressed"
still=0
while read -r pkg test; do
  ok=false
  for _ in 1 2 3; do
    if (cd "$work/dropin" && go test -count=1 -run "^${test}\$" "$pkg" > /dev/null 2>&1); then ok=true; break; fi
  done
  if $ok; then echo "flaky on the drop-in, passed on a rerun: $pkg $test"; else echo "FAILS on the drop-in: $pkg $test"; still=$((still + 1)); fi
done < "$work/regressed"
echo "quic-go ./http3/...: stock $(wc -l < "$work/stock.pass") passed; drop-in $(wc -l < "$work/dropin.pass") passed; $still that pass stock fail on the drop-in"
[ "$(wc -l < "$work/stock.pass")" -gt 0 ] || { echo "no test passed on stock: the run is broken"; exit 1; }
[ "$still" = 0 ]
