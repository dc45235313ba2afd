#!/usr/bin/env bash
# grpc-go v1.85.0 on metapack: build the patched copy and check it.
#
#   run.sh test   grpc-go's own tests, unmodified, on stock and on patched
#                 (CI); fails if a test that passes stock fails patched
#                 and that the patches are what mkpatches.sh writes
#   run.sh ab     A/B with grpc-go's benchmark/benchmain: stock, patched and
#                 a control (patched glue on x/net's HPACK); by hand
#
# Environment:
#   GRPC_WORK=dir   work in dir (kept) instead of a temporary one (removed)
#   TEST_RUN=re     -run pattern for ./test (default below)
#   AB_TIME=10s     benchtime per A/B run; AB_ROUNDS=3 rounds per side
#   AB_LOAD=0.5     wait (up to AB_WAIT=600 s) for a 1-minute load average below it
#   AB_CPU=instructions  CPU/RPC in the summary as instructions per RPC
#                   (callgrind; needs valgrind), or AB_CPU=time for user +
#                   system time per RPC
#   AB_GOMAXPROCS=1 GOMAXPROCS of the benchmark processes (see README: with
#                   more, idle Ps spinning for work add CPU time that varies
#                   from run to run more than the differences measured)
#
# The last line is the summary:
#   grpc-go on metapack: tests N passed, M failed; md10 CPU/RPC X.XXx, allocs/op Y.YYx; md0 CPU/RPC Z.ZZx (patched/stock, medians)
# where N counts the tests that pass patched and M those that pass stock but
# fail patched (after reruns: see rerun_regressions in ../lib.sh); test
# mode prints n/a for the A/B fields, and ab mode for the test counts.
set -euo pipefail

mode=${1:-test}
case $mode in test | ab) ;; *)
	echo "usage: $0 test|ab" >&2
	exit 2
	;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
grpc_version=v1.85.0

# Packages whose tests run whole, and the end-to-end tests in ./test about
# metadata, headers, trailers, header list limits, status, errors,
# :authority, grpc-timeout, compression (grpc-encoding), tap handles and
# per-RPC credentials (authorization headers). grpc-go's tests are
# subtests of Test (internal/grpctest), hence the Test/ prefix.
unit_pkgs=(./internal/transport/... ./metadata ./stats)
e2e_pkg=./test
TEST_RUN=${TEST_RUN:-'Test/.*(Metadata|Header|Trailer|Status|Error|Malformed|Authority|Timeout|Compress|Tap|Cred)'}

# shellcheck source=SCRIPTDIR/../lib.sh
. "$here/../lib.sh"
setup_work "${GRPC_WORK:-}" metapack-grpc-go

# tree name patch... makes a writable copy of grpc-go in $work/name with the
# patches applied (paths relative to $here); a patch that does not apply
# fails the script.
tree() {
	local name=$1
	shift
	local dst=$work/$name
	rm -rf "$dst"
	cp -R "$src" "$dst"
	chmod -R u+w "$dst"
	local p
	for p in "$@"; do
		patch -d "$dst" -p1 --batch --forward --quiet <"$here/$p" ||
			die "$p does not apply to grpc-go $grpc_version"
	done
	if [[ -e $dst/internal/transport/metapack.go ]]; then
		# The patches change no go.mod or go.sum: the replace is added
		# here, and go mod tidy adds the require and makes go.sum, so
		# that they never go stale (needs the module proxy).
		(cd "$dst" && go mod edit -replace "github.com/metapack/metapack=$repo" &&
			GOFLAGS=-mod=mod go mod tidy >"$work/$name.tidy.log" 2>&1) ||
			die "$name: go mod tidy failed: $(tail -20 "$work/$name.tidy.log")"
	fi
	echo "$dst"
}

# results file: "action package test" for each test at the level counted:
# the subtests of grpctest's Test, and other top-level tests.
results() {
	sed -n 's/.*"Action":"\(pass\|fail\|skip\)","Package":"\([^"]*\)","Test":"\([^"]*\)".*/\1 \2 \3/p' "$1" |
		awk '{ n = split($3, p, "/"); if ((n == 2 && p[1] == "Test") || (n == 1 && $3 != "Test")) print }' |
		sort -k2,3 -u
}

test_mode() {
	echo "== grpc-go $grpc_version from $src"
	bash "$here/mkpatches.sh" check || die "the patches are not mkpatches.sh's (see README)"
	local stock patched
	stock=$(tree stock)
	patched=$(tree patched grpc-go-v1.85.0.patch)
	local t0=$SECONDS
	run_tests "$stock" "$work/stock" "$e2e_pkg"
	echo "== stock: $((SECONDS - t0)) s"
	t0=$SECONDS
	run_tests "$patched" "$work/patched" "$e2e_pkg"
	echo "== patched: $((SECONDS - t0)) s"

	check_results "$stock" "$patched"
}

# ---- A/B ------------------------------------------------------------------

bench_args=(-workloads=unary -bufconn=true -maxConcurrentCalls=8 -reqSizeBytes=16 -respSizeBytes=16
	-latency=0s -kbps=0 -mtu=0 -compression=off -trace=off -channelz=off)

# bench side md: one run; appends "side md rps cpu_ns allocs bytes c2s s2c" to $work/ab.txt
bench() {
	local side=$1 md=$2 out
	out=$(GOMAXPROCS=${AB_GOMAXPROCS:-1} AB_MD=$md "$work/bin/$side" "${bench_args[@]}" -benchtime="${AB_TIME:-10s}" 2>&1) ||
		die "benchmain ($side, md$md) failed: $out"
	local ab allocs bytes
	ab=$(grep '^AB: ' <<<"$out") || die "benchmain ($side) printed no AB line"
	allocs=$(sed -n 's/.*Allocs\/op: \([0-9.e+]*\).*/\1/p' <<<"$out" | head -1)
	bytes=$(sed -n 's/.*Bytes\/op: \([0-9.e+]*\).*/\1/p' <<<"$out" | head -1)
	awk -v s="$side" -v m="$md" -v a="$allocs" -v b="$bytes" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%s md%s %s %s %s %s %s %s\n", s, m, v["rps"], v["cpu_ns_per_rpc"], a, b, v["c2s_bytes_per_rpc"], v["s2c_bytes_per_rpc"]
	}' <<<"$ab" | tee -a "$work/ab.txt"
}

# instr side md: instructions per RPC, counted by callgrind over two runs
# of different lengths and differenced, so that what the process does
# once (start, connect, warm up) cancels out; appends "side md ir/rpc".
# GODEBUG: valgrind 3.19 cannot run the RDTSCP of runtime.cputicks, and
# callgrind asserts on the signals of asynchronous preemption.
instr() {
	local side=$1 md=$2 t ir rpcs out
	local -a irs=() n=()
	for t in ${AB_INSTR_TIMES:-2s 8s}; do
		out=$(GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 AB_MD=$md valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$work/bin/$side" "${bench_args[@]}" -benchtime="$t" 2>&1) ||
			die "benchmain under callgrind ($side, md$md) failed: $out"
		ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out")
		rpcs=$(sed -n 's/^AB: rpcs=\([0-9]*\).*/\1/p' <<<"$out")
		[[ -n $ir && -n $rpcs ]] || die "callgrind ($side, md$md) printed no count"
		irs+=("$ir")
		n+=("$rpcs")
	done
	awk -v s="$side" -v m="$md" -v i1="${irs[0]}" -v i2="${irs[1]}" -v n1="${n[0]}" -v n2="${n[1]}" \
		'BEGIN { printf "%s md%s %.0f\n", s, m, (i2 - i1) / (n2 - n1) }' | tee -a "$work/instr.txt"
}

ab_mode() {
	echo "== grpc-go $grpc_version from $src"
	mkdir -p "$work/bin"
	local side dir
	for side in stock patched control; do
		case $side in
		stock) dir=$(tree ab-stock ab-benchmain.patch) ;;
		patched) dir=$(tree ab-patched grpc-go-v1.85.0.patch ab-benchmain.patch) ;;
		control) dir=$(tree ab-control grpc-go-v1.85.0.patch ab-control-xnet.patch ab-benchmain.patch) ;;
		esac
		(cd "$dir" && go build -o "$work/bin/$side" ./benchmark/benchmain) || die "$side: benchmain does not build"
	done
	wait_idle
	# The header path alone (testdata/headerbench_*.go): less exposed to the
	# noise of a shared machine than the end-to-end runs.
	echo "header path microbenchmark (go test -bench ABHeaders, medians of ${AB_ROUNDS:-3}):"
	for side in stock patched control; do
		dir=$work/ab-$side/internal/transport
		cp "$here/testdata/headerbench_common.go" "$dir/zz_headerbench_common_test.go"
		if [[ $side == stock ]]; then local variant=stock; else local variant=patched; fi
		cp "$here/testdata/headerbench_$variant.go" "$dir/zz_headerbench_side_test.go"
		(cd "$work/ab-$side" && GOMAXPROCS=${AB_GOMAXPROCS:-1} go test -run '^$' -bench ABHeaders -benchtime=1s \
			-count="${AB_ROUNDS:-3}" ./internal/transport/ >"$work/headerbench-$side.txt" 2>&1) ||
			die "$side: header benchmark failed: $(cat "$work/headerbench-$side.txt")"
		awk -v s="$side" '/^BenchmarkABHeaders\// {
			split($1, n, "/"); sub(/-[0-9]+$/, "", n[2]); k = n[2]
			ns[k] = ns[k] " " $3; al[k] = $7
		} END {
			for (k in ns) { c = split(ns[k], a, " "); for (i = 2; i <= c; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
				printf "  %-8s %-5s %7.0f ns/op %4d allocs/op\n", s, k, c % 2 ? a[(c+1)/2] : (a[c/2] + a[c/2+1]) / 2, al[k] }
		}' "$work/headerbench-$side.txt" | sort -k2
	done
	: >"$work/ab.txt"
	echo "end to end:"
	echo "side md rps cpu_ns/rpc allocs/op bytes/op c2s_bytes/rpc s2c_bytes/rpc"
	local r order md
	for ((r = 1; r <= ${AB_ROUNDS:-3}; r++)); do
		# Alternate the order of the sides from round to round.
		if ((r % 2)); then order="stock patched control"; else order="control patched stock"; fi
		for md in 0 10; do
			for side in $order; do
				bench "$side" "$md"
			done
		done
	done
	echo
	echo "medians of ${AB_ROUNDS:-3} rounds (AB_TIME=${AB_TIME:-10s}, GOMAXPROCS=${AB_GOMAXPROCS:-1}, unary, bufconn, 8 concurrent calls, 16-byte messages):"
	awk '
	function median(key, col,   n, i, j, t, a) {
		n = split(vals[key, col], a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ k = $1 " " $2; keys[k] = 1; for (c = 3; c <= 8; c++) vals[k, c] = vals[k, c] " " $c }
	END {
		printf "| side | md | RPCs/s | CPU µs/RPC | allocs/op | bytes/op | wire bytes/RPC c2s | s2c |\n|---|---|---|---|---|---|---|---|\n"
		split("md0 md10", mds, " ")
		split("stock patched control", sides, " ")
		for (m = 1; m <= 2; m++) for (s = 1; s <= 3; s++) {
			k = sides[s] " " mds[m]
			if (!(k in keys)) continue
			for (c = 3; c <= 8; c++) med[k, c] = median(k, c)
			printf "| %s | %s | %.0f | %.2f | %.1f | %.0f | %.1f | %.1f |\n", sides[s], mds[m], med[k,3], med[k,4] / 1000, med[k,5], med[k,6], med[k,7], med[k,8]
		}
		for (m = 1; m <= 2; m++) for (s = 2; s <= 3; s++) {
			k = sides[s] " " mds[m]; b = "stock " mds[m]
			printf "%s/stock %s: CPU/RPC %.3fx, allocs/op %.3fx (%+.1f), RPCs/s %.3fx, c2s bytes %+.1f\n", sides[s], mds[m], med[k,4] / med[b,4], med[k,5] / med[b,5], med[k,5] - med[b,5], med[k,3] / med[b,3], med[k,7] - med[b,7]
		}
		printf "summary: md10 CPU/RPC %.2fx, allocs/op %.2fx; md0 CPU/RPC %.2fx\n", med["patched md10",4] / med["stock md10",4], med["patched md10",5] / med["stock md10",5], med["patched md0",4] / med["stock md0",4]
	}' "$work/ab.txt" | tee "$work/ab-summary.txt"
	summary_ab=$(sed -n 's/^summary: //p' "$work/ab-summary.txt")
	if [[ ${AB_CPU:-instructions} == instructions ]]; then
		# On a shared or virtual machine the same binary's CPU time per
		# RPC can vary 2x from run to run; instructions do not.
		command -v valgrind >/dev/null || die "valgrind is needed for AB_CPU=instructions (or set AB_CPU=time)"
		: >"$work/instr.txt"
		echo "instructions per RPC (callgrind, GOMAXPROCS=1, runs of ${AB_INSTR_TIMES:-2s 8s} differenced):"
		for md in 0 10; do
			for side in stock patched control; do
				instr "$side" "$md"
			done
		done
		awk '{ ir[$1 " " $2] = $3 } END {
			for (m = 0; m <= 10; m += 10) for (s = 1; s <= 2; s++) {
				side = s == 1 ? "patched" : "control"
				printf "%s/stock md%d: instructions/RPC %.3fx\n", side, m, ir[side " md" m] / ir["stock md" m]
			}
			printf "summary: md10 CPU/RPC %.2fx", ir["patched md10"] / ir["stock md10"]
		}' "$work/instr.txt" | tee "$work/instr-summary.txt"
		echo
		local allocs
		allocs=$(sed -n 's/^summary: md10 CPU\/RPC [0-9.]*x, \(allocs\/op [0-9.]*x\);.*/\1/p' "$work/ab-summary.txt")
		summary_ab="$(sed -n 's/^summary: //p' "$work/instr-summary.txt" | tail -1), $allocs; md0 CPU/RPC $(awk '{ ir[$1 " " $2] = $3 } END { printf "%.2fx", ir["patched md0"] / ir["stock md0"] }' "$work/instr.txt")"
	fi
}

src=$(fetch google.golang.org/grpc "$grpc_version")
summary_tests="tests n/a"
summary_ab="md10 CPU/RPC n/a, allocs/op n/a; md0 CPU/RPC n/a"
status=0
if [[ $mode == test ]]; then
	test_mode || status=1
else
	ab_mode
fi
echo "grpc-go on metapack: $summary_tests; $summary_ab (patched/stock, medians)"
exit $status
