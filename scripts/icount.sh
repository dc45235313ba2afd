#!/usr/bin/env bash
# icount.sh DIR OUT [corpus-regexp]: BenchmarkDecode/BenchmarkEncode instructions per pass of
# impl=metapack, per corpus, counted by callgrind (deterministic, unlike timings on a shared
# machine). Decode: callgrind counts inside the pass closure only, over N timed passes and one
# warm-up. Encode: the pass closure is inlined, so the whole benchmark function is counted at
# -benchtime 1x and 5x and differenced. Needs valgrind and ../shared beside DIR. #27 used it.
# cpu.rdtscp=off: valgrind 3.19 cannot run RDTSCP, which runtime.cputicks uses on contended locks.
set -euo pipefail
dir=$1; out=$2; only=${3:-.}
cd "$dir"
bin=/tmp/icount-hpack.$$.test
go test -c -o $bin ./hpack
cd hpack
: > "$out"
N=3
for top in BenchmarkDecode BenchmarkEncode; do
  fn='*benchmarkDecodeCorpus.func1'; [ $top = BenchmarkEncode ] && fn='*benchmarkEncodeCorpus'
  for name in $($bin -test.run '^$' -test.bench "^$top\$/./^impl=metapack\$" -test.benchtime 1x 2>/dev/null | awk '/^Benchmark/{print $1}' | sed 's/-[0-9]*$//' | grep -E "$only"); do
    corpus=${name#*/}; corpus=${corpus%%/*}
    pat="^$top\$/^${corpus}\$/^impl=metapack\$"
    cnt() { GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no --toggle-collect="$fn" $bin -test.run '^$' -test.bench "$pat" -test.benchtime ${1}x 2>&1 | awk '/Collected/{print $4}'; }
    if [ $top = BenchmarkDecode ]; then
      ir=$(cnt $N); echo "$name $(( ir/(N+1) ))" | tee -a "$out"
    else
      a=$(cnt 1); b=$(cnt 5); echo "$name $(( (b-a)/4 ))" | tee -a "$out"
    fi
  done
done
rm -f $bin
