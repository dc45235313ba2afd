#!/usr/bin/env bash
# quic-go v0.65.0 on metapack: build the patched copy and check it.
#
#   run.sh test   quic-go's own tests, unmodified, on stock and on patched
#                 (CI); fails if a test that passes stock fails patched
#   run.sh ab     A/B of stock and patched on loopback (by hand): header
#                 bytes, instructions and allocations per request
#
# Environment:
#   QUICGO_WORK=dir   work in dir (kept) instead of a temporary one (removed)
#   QUICGO_PATCH=file the patch applied to the patched tree (default
#                     quic-go-v0.65.0.patch next to this script; an empty
#                     file such as /dev/null makes patched the same as stock)
#   TEST_RUN=re       -run pattern for ./integrationtests/self (default below)
#   AB_ROUNDS=3       A/B rounds per side, alternating the order of the sides
#   AB_LOAD=0.5       ab waits (up to AB_WAIT=600 s) for a 1-minute load average below it
#   AB_INSTR_N="383 1532"  the two run lengths (requests) callgrind counts
#
# test and ab need ../shared/qifs beside the repository (fb-req and
# fb-resp's header sets); ab needs valgrind.
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
# fail patched (after reruns: see rerun_regressions in ../lib.sh); test
# mode prints n/a for the A/B fields. ab takes N and M from an earlier test
# run in the same QUICGO_WORK with the same patch, or else runs test first
# (and then exits 1 if it failed, after the A/B).
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

# shellcheck source=SCRIPTDIR/../lib.sh
. "$here/../lib.sh"
setup_work "${QUICGO_WORK:-}" metapack-quic-go

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

# qifs prints the directory of the QPACK interop corpus's QIF files.
qifs() {
	local d=$repo/../shared/qifs/qifs
	[[ -f $d/fb-req.qif && -f $d/fb-resp.qif ]] ||
		die "interop and ab need ../shared/qifs beside the repository (fb-req.qif, fb-resp.qif)"
	(cd "$d" && pwd)
}

# build_ab side dir: the test binary of dir's http3 package with the A/B
# program (testdata/ab_test.go and ab_<side>.go) added, as $work/bin/side.
build_ab() {
	local side=$1 dir=$2
	mkdir -p "$work/bin"
	cp "$here/testdata/ab_test.go" "$dir/http3/zz_metapack_ab_test.go"
	cp "$here/testdata/ab_$side.go" "$dir/http3/zz_metapack_ab_side_test.go"
	(cd "$dir" && go test -c -o "$work/bin/$side.test" ./http3 >"$work/build-$side.log" 2>&1) ||
		die "$side: the A/B program does not build: $(tail -20 "$work/build-$side.log")"
}

# ab_field line key: the value of key=value in an "AB:" line.
ab_field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }

# interop_pair server client: the server side's binary serves, on
# loopback, the client side's $interop_n requests; prints one row of the
# matrix and fails unless the requests all succeed and the table is used
# exactly when both sides are patched, in each direction. The stock pair
# runs first: a patched side against stock must send the same HEADERS
# bytes as stock does.
interop_n=100
interop_pair() {
	local server=$1 client=$2 out=$work/interop-$1-$2 addr="" i
	AB_ROLE=server AB_ADDR=127.0.0.1:0 AB_TRACE=1 AB_N=$interop_n AB_QIFS=$qif_dir \
		"$work/bin/$server.test" -test.run '^TestMetapackAB$' >"$out.server" 2>&1 &
	local pid=$!
	for ((i = 0; i < 100; i++)); do
		addr=$(sed -n 's/^AB-LISTEN //p' "$out.server")
		[[ -n $addr ]] && break
		sleep 0.1
	done
	[[ -n $addr ]] || { kill "$pid" 2>/dev/null; die "interop: $server server did not start: $(cat "$out.server")"; }
	if ! AB_ROLE=client AB_ADDR=$addr AB_TRACE=1 AB_N=$interop_n AB_QIFS=$qif_dir \
		"$work/bin/$client.test" -test.run '^TestMetapackAB$' >"$out.client" 2>&1; then
		kill "$pid" 2>/dev/null
		echo "interop: $client client to $server server failed: $(tail -5 "$out.client")"
		return 1
	fi
	wait "$pid" || { echo "interop: $server server failed: $(tail -5 "$out.server")"; return 1; }
	local c s
	c=$(grep '^AB: side=client' "$out.client") || { echo "interop: no client line"; return 1; }
	s=$(grep '^AB: side=server' "$out.server") || { echo "interop: no server line"; return 1; }
	local ch cq sh sq want ok=ok
	ch=$(ab_field "$c" headers) cq=$(ab_field "$c" qpack) sh=$(ab_field "$s" headers) sq=$(ab_field "$s" qpack)
	if [[ $server == patched && $client == patched ]]; then
		want="table both ways"
		((cq > 0 && sq > 0)) || ok=FAIL
	elif [[ $server == stock && $client == stock ]]; then
		want="static only"
		((cq == 0 && sq == 0)) || ok=FAIL
		stock_bytes="$ch $sh"
	else
		# Against stock the patched side must send what stock sends.
		want="static only, bytes as stock's"
		((cq == 0 && sq == 0)) && [[ "$ch $sh" == "$stock_bytes" ]] || ok=FAIL
	fi
	printf '| %s | %s | %d | %d | %d | %d | %s: %s |\n' "$client" "$server" "$ch" "$cq" "$sh" "$sq" "$want" "$ok"
	[[ $ok == ok ]]
}

# interop_check: run after the regression check; its status is
# test_mode's. Every pairing of stock and patched, over loopback UDP.
interop_check() {
	qif_dir=$(qifs)
	build_ab stock "$work/stock"
	build_ab patched "$work/patched"
	echo "interop, $interop_n requests of fb-req with fb-resp's responses; bytes sent, from qlog (HEADERS payloads, QPACK streams):"
	echo "| client | server | c2s HEADERS | c2s QPACK streams | s2c HEADERS | s2c QPACK streams | check |"
	echo "|---|---|---|---|---|---|---|"
	local status=0 pair
	for pair in "stock stock" "stock patched" "patched stock" "patched patched"; do
		# shellcheck disable=SC2086 # two words
		interop_pair $pair || status=1
	done
	return $status
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
	run_tests "$stock" "$work/stock" "$integ_pkg"
	echo "== stock: $((SECONDS - t0)) s"
	t0=$SECONDS
	run_tests "$patched" "$work/patched" "$integ_pkg"
	echo "== patched: $((SECONDS - t0)) s"

	local status=0 own
	check_results "$stock" "$patched" || status=1
	# Tests the patch adds (its own file's), which stock does not have.
	own=$(awk 'NR == FNR { have[$2 " " $3] = 1; next } !(($2 " " $3) in have) && $1 == "pass"' "$work/stock.txt" "$work/patched.txt" | wc -l)
	echo "patched: $((passed - own)) of quic-go's tests pass, and $own of the patch's own"
	interop_check || status=1
	# For ab: the counts, and whether the run passed, for this patch.
	echo "$(patch_sum) $status $summary_tests" >"$work/test-summary.txt"
	return $status
}

# patch_sum: the patch's sha256.
patch_sum() { sha256sum <"$patch_file" | cut -d' ' -f1; }

# ---- A/B ------------------------------------------------------------------

# ab_run side env...: one in-process run (server and client on loopback)
# of the A/B program; prints its client and server AB lines.
ab_run() {
	local side=$1 out
	shift
	out=$(env AB_ROLE=both AB_QIFS="$qif_dir" "$@" "$work/bin/$side.test" -test.run '^TestMetapackAB$' 2>&1) ||
		die "A/B program ($side) failed: $out"
	grep '^AB: ' <<<"$out" || die "A/B program ($side) printed no AB line: $out"
}

# ab_instr side: instructions per request, counted by callgrind over runs
# of two lengths, differenced so that what the process does once (start,
# handshake, reading the corpus) cancels out. GODEBUG: valgrind 3.19
# cannot run the RDTSCP of runtime.cputicks, and callgrind asserts on the
# signals of asynchronous preemption.
ab_instr() {
	local side=$1 n out
	local -a irs=() ns=()
	for n in ${AB_INSTR_N:-383 1532}; do
		out=$(GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 AB_ROLE=both AB_QIFS=$qif_dir AB_N=$n \
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/bin/$side.test" -test.run '^TestMetapackAB$' 2>&1) ||
			die "A/B program under callgrind ($side) failed: $out"
		irs+=("$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out")")
		ns+=("$n")
	done
	[[ -n ${irs[0]} && -n ${irs[1]} ]] || die "callgrind ($side) printed no count"
	awk -v s="$side" -v i1="${irs[0]}" -v i2="${irs[1]}" -v n1="${ns[0]}" -v n2="${ns[1]}" \
		'BEGIN { printf "%s %.0f\n", s, (i2 - i1) / (n2 - n1) }'
}

ab_mode() {
	local saved st=0
	saved=$(cat "$work/test-summary.txt" 2>/dev/null || true)
	if [[ ${saved%% *} != "$(patch_sum)" ]]; then
		test_mode || st=1
		saved=$(cat "$work/test-summary.txt")
	fi
	summary_tests=$(cut -d' ' -f3- <<<"$saved")
	[[ $(cut -d' ' -f2 <<<"$saved") == 0 ]] || st=1
	echo "== quic-go $quicgo_version from $src"
	qif_dir=$(qifs)
	build_ab stock "$(tree ab-stock)"
	build_ab patched "$(tree ab-patched "$patch_file")"
	command -v valgrind >/dev/null || die "valgrind is needed for CPU/request (instructions)"
	wait_idle
	: >"$work/ab.txt"
	local r order side lines
	for ((r = 1; r <= ${AB_ROUNDS:-3}; r++)); do
		# Alternate the order of the sides from round to round.
		if ((r % 2)); then order="stock patched"; else order="patched stock"; fi
		for side in $order; do
			# Bytes with qlog on; allocations and instructions without it,
			# as qlog costs what neither side would pay in production.
			lines=$(ab_run "$side" AB_TRACE=1)
			local c s ch cq sh sq allocs ir
			c=$(grep 'side=client' <<<"$lines") s=$(grep 'side=server' <<<"$lines")
			ch=$(ab_field "$c" headers) cq=$(ab_field "$c" qpack) sh=$(ab_field "$s" headers) sq=$(ab_field "$s" qpack)
			allocs=$(ab_field "$(ab_run "$side" | grep 'side=client')" allocs_per_request)
			ir=$(ab_instr "$side" | cut -d' ' -f2)
			echo "$side $r $ch $cq $sh $sq $allocs $ir" | tee -a "$work/ab.txt"
		done
	done
	echo
	awk -v rounds="${AB_ROUNDS:-3}" '
	function median(key, col,   n, i, j, t, a) {
		n = split(vals[key, col], a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ for (c = 3; c <= 8; c++) vals[$1, c] = vals[$1, c] " " $c }
	END {
		printf "medians of %d rounds, 383 requests of fb-req with fb-resp responses, one connection, loopback UDP:\n", rounds
		printf "| side | request HEADERS B/req | client QPACK streams B/req | response HEADERS B/req | server QPACK streams B/req | header bytes/req, both ways | CPU instructions/req (client + server) | allocs/req (client + server) |\n|---|---|---|---|---|---|---|---|\n"
		split("stock patched", sides, " ")
		for (i = 1; i <= 2; i++) {
			s = sides[i]
			for (c = 3; c <= 8; c++) m[s, c] = median(s, c)
			tot[s] = m[s,3] + m[s,4] + m[s,5] + m[s,6]
			printf "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.1f |\n", s, m[s,3]/383, m[s,4]/383, m[s,5]/383, m[s,6]/383, tot[s]/383, m[s,8], m[s,7]
		}
		printf "requests: header bytes %.3fx; responses: %.3fx\n", (m["patched",3] + m["patched",4]) / (m["stock",3] + m["stock",4]), (m["patched",5] + m["patched",6]) / (m["stock",5] + m["stock",6])
		printf "summary: header bytes %.2fx, CPU/request %.2fx, allocs/request %.2fx\n", tot["patched"] / tot["stock"], m["patched",8] / m["stock",8], m["patched",7] / m["stock",7]
	}' "$work/ab.txt" | tee "$work/ab-summary.txt"
	summary_ab=$(sed -n 's/^summary: //p' "$work/ab-summary.txt")
	return $st
}

src=$(fetch github.com/quic-go/quic-go "$quicgo_version")
summary_tests="tests n/a"
summary_ab="header bytes n/a, CPU/request n/a, allocs/request n/a"
status=0
if [[ $mode == test ]]; then
	test_mode || status=1
else
	ab_mode || status=1
fi
echo "quic-go on metapack: $summary_tests; $summary_ab (patched/stock, medians)"
exit $status
