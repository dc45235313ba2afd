#!/usr/bin/env bash
# quic-go v0.65.0 on metapack: build the patched copy and check it.
#
#   run.sh test   quic-go's own tests, unmodified, on stock and on patched
#                 (CI); fails if a test that passes stock fails patched
#   run.sh ab     A/B of stock and patched (not written yet)
#
# Environment:
#   QUICGO_WORK=dir   work in dir (kept) instead of a temporary one (removed)
#   QUICGO_PATCH=file the patch applied to the patched tree (default
#                     quic-go-v0.65.0.patch next to this script; an empty
#                     file such as /dev/null makes patched the same as stock)
#   TEST_RUN=re       -run pattern for ./integrationtests/self (default below)
#
# The tests: ./http3/... whole, and in ./integrationtests/self the top-level
# tests of its http_*_test.go files. Unless TEST_RUN is set, the -run pattern
# for those is ^(TestA|TestB|...)$, the names of every top-level
# "func TestXxx(t *testing.T)" in integrationtests/self/http_*_test.go of
# the stock tree, found at run time (so that a new quic-go version brings
# its new tests along). Only top-level tests are counted, not subtests.
#
# The last line is the summary:
#   quic-go on metapack: tests N passed, M failed; header bytes X, CPU/request Y, allocs/request Z (patched/stock, medians)
# where N counts the tests that pass patched and M those that pass stock but
# fail patched (after reruns: see the regression check in test_mode); test
# mode prints n/a for the A/B fields.
set -euo pipefail

mode=${1:-test}
case $mode in test | ab) ;; *)
	echo "usage: $0 test|ab" >&2
	exit 2
	;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
quicgo_version=v0.65.0
patch_file=${QUICGO_PATCH:-$here/quic-go-v0.65.0.patch}

# Packages whose tests run whole, and the integration tests of HTTP/3.
unit_pkgs=(./http3/...)
integ_pkg=./integrationtests/self
integ_files='integrationtests/self/http_*_test.go'

if [[ -n ${QUICGO_WORK:-} ]]; then
	work=$QUICGO_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/metapack-quic-go.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
work=$(cd "$work" && pwd)

die() {
	echo "run.sh: $*" >&2
	exit 1
}

# fetch prints the module cache directory of quic-go $quicgo_version.
fetch() {
	local dir
	dir=$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "github.com/quic-go/quic-go@$quicgo_version" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[[ -n $dir && -d $dir ]] || die "go mod download github.com/quic-go/quic-go@$quicgo_version gave no directory"
	echo "$dir"
}

# tree name [patch] makes a writable copy of quic-go in $work/name with the
# patch applied (an empty one changes nothing); a patch that does not apply
# fails the script.
tree() {
	local name=$1 p=${2:-}
	local dst=$work/$name
	rm -rf "$dst"
	cp -R "$src" "$dst"
	chmod -R u+w "$dst"
	if [[ -n $p ]]; then
		[[ -e $p ]] || die "no patch $p"
		if [[ -s $p ]]; then
			patch -d "$dst" -p1 --batch --forward --quiet <"$p" ||
				die "$p does not apply to quic-go $quicgo_version"
		fi
		if grep -q 'metapack/metapack' "$p"; then
			# The patch changes no go.mod or go.sum: the require and
			# replace are added here, and go mod tidy makes go.sum, so
			# that they never go stale (needs the module proxy).
			# Without an import of metapack tidy would drop them.
			(cd "$dst" && go mod edit -require github.com/metapack/metapack@v0.0.0 \
				-replace "github.com/metapack/metapack=$repo" &&
				GOFLAGS=-mod=mod go mod tidy >"$work/$name.tidy.log" 2>&1) ||
				die "$name: go mod tidy failed: $(tail -20 "$work/$name.tidy.log")"
		fi
	fi
	echo "$dst"
}

# run_pattern dir: ^(TestA|TestB|...)$ for the top-level tests of
# $integ_files in dir.
run_pattern() {
	local names
	# shellcheck disable=SC2086 # $integ_files is a glob
	names=$(cd "$1" && sed -n 's/^func \(Test[A-Za-z0-9_]*\)(t \*testing\.T) {.*/\1/p' $integ_files | sort -u | paste -sd'|' -)
	[[ -n $names ]] || die "no tests in $integ_files"
	echo "^($names)\$"
}

# results file: "action package test" for each top-level test.
results() {
	sed -n 's/.*"Action":"\(pass\|fail\|skip\)","Package":"\([^"]*\)","Test":"\([^"]*\)".*/\1 \2 \3/p' "$1" |
		awk 'index($3, "/") == 0' |
		sort -k2,3 -u
}

# run_tests dir out: runs the test set in dir, go test -json output to out.*
run_tests() {
	local dir=$1 out=$2
	(cd "$dir" && go test -count=1 -run '^$' "${unit_pkgs[@]}" "$integ_pkg" >"$out.build.log" 2>&1) ||
		die "$(basename "$dir"): tests do not build:
$(grep -v '^ok ' "$out.build.log" | tail -30)"
	(cd "$dir" && go test -json -count=1 "${unit_pkgs[@]}" >"$out.unit.json" 2>&1) || true
	(cd "$dir" && go test -json -count=1 -run "$TEST_RUN" "$integ_pkg" >"$out.integ.json" 2>&1) || true
	cat "$out.unit.json" "$out.integ.json" >"$out.json"
	results "$out.json" >"$out.txt"
}

# shellcheck disable=SC2001,SC2016 # sed, and its $ is not bash's
regexp_quote() { sed 's/[][\.*^$(){}?+|]/\\&/g' <<<"$1"; }

# interop_check: run after the regression check; its status is test_mode's.
interop_check() {
	# filled in by the interop program commit
	return 0
}

test_mode() {
	echo "== quic-go $quicgo_version from $src"
	echo "== patch: $patch_file"
	local stock patched
	stock=$(tree stock)
	patched=$(tree patched "$patch_file")
	TEST_RUN=${TEST_RUN:-$(run_pattern "$stock")}
	echo "== -run pattern: $TEST_RUN"
	local t0=$SECONDS
	run_tests "$stock" "$work/stock"
	echo "== stock: $((SECONDS - t0)) s"
	t0=$SECONDS
	run_tests "$patched" "$work/patched"
	echo "== patched: $((SECONDS - t0)) s"

	local side
	for side in stock patched; do
		echo "$side: $(grep -c '^pass ' "$work/$side.txt" || true) passed, $(grep -c '^fail ' "$work/$side.txt" || true) failed, $(grep -c '^skip ' "$work/$side.txt" || true) skipped"
	done
	# Tests that pass stock and do not pass patched (failed or missing).
	# Each runs alone on patched 3 more times; if all 3 pass it is counted
	# as passed (and listed as flaky), else as failed: quic-go's tests
	# include timing-dependent ones that fail now and then on either tree.
	awk 'NR == FNR { if ($1 == "pass") ok[$2 " " $3] = 1; next } ($2 " " $3) in ok && $1 == "pass" { delete ok[$2 " " $3] } END { for (k in ok) print k }' \
		"$work/stock.txt" "$work/patched.txt" | sort >"$work/regressions.txt"
	local failed=0 flaky=0 pkg name
	while read -r pkg name; do
		[[ -n $pkg ]] || continue
		if (cd "$patched" && go test -count=3 -run "^$(regexp_quote "$name")\$" "$pkg" >"$work/rerun.log" 2>&1); then
			echo "flaky (failed once, passed 3 reruns): $pkg $name"
			flaky=$((flaky + 1))
		else
			echo "FAIL on patched, passes stock: $pkg $name"
			failed=$((failed + 1))
		fi
	done <"$work/regressions.txt"
	local passed status=0
	passed=$(($(grep -c '^pass ' "$work/patched.txt" || true) + flaky))
	summary_tests="tests $passed passed, $failed failed"
	[[ $failed -eq 0 ]] || status=1
	interop_check || status=1
	return $status
}

# ---- A/B ------------------------------------------------------------------

ab_mode() {
	echo "run.sh: ab is not written yet" >&2
	exit 2
}

src=$(fetch)
summary_tests="tests n/a"
summary_ab="header bytes n/a, CPU/request n/a, allocs/request n/a"
status=0
if [[ $mode == test ]]; then
	test_mode || status=1
else
	ab_mode
fi
echo "quic-go on metapack: $summary_tests; $summary_ab (patched/stock, medians)"
exit $status
