#!/usr/bin/env bash
# A/B load test of the example server's header codec: the same server
# binary runs with -codec metapack and with -codec xnet on loopback, and
# h2load drives each with the same gRPC-like unary calls. Reported per
# codec: requests/s and the server's CPU seconds per 100k requests (utime +
# stime from /proc/PID/stat), and the ratios.
#
# Environment:
#   LOADTEST_REQUESTS  requests per h2load run (default 200000; 0 skips)
#   LOADTEST_CLIENTS   h2load -c (default 16)
#   LOADTEST_STREAMS   h2load -m (default 16)
#   LOADTEST_ROUNDS    alternating rounds per codec; medians are reported (default 3)
#   LOADTEST_ECHO_HEADERS  extra x-echo-* request headers, each echoed in
#                      the response headers (default 0; the issue's second
#                      workload uses 20)
#   LOADTEST_PIN       1: pin the server to CPU 1 and h2load to CPU 0 with
#                      taskset (default when there are 2+ CPUs and taskset),
#                      so that neither steals the other's core; 0: unpinned
#   LOADTEST_ENFORCE   1: exit 1 unless ours reaches 1.10x the requests/s
#                      or at most 0.80x the CPU per request of x/net (default 0)
# Needs h2load (apt-get install nghttp2-client); installs it if missing and
# apt-get is usable, else skips.
set -euo pipefail
cd "$(dirname "$0")"

requests=${LOADTEST_REQUESTS:-200000}
clients=${LOADTEST_CLIENTS:-16}
streams=${LOADTEST_STREAMS:-16}
rounds=${LOADTEST_ROUNDS:-3}
enforce=${LOADTEST_ENFORCE:-0}
echo_headers=${LOADTEST_ECHO_HEADERS:-0}
extra=()
for i in $(seq "$echo_headers"); do
  extra+=(-H "x-echo-h$i: value-$i-0123456789abcdef")
done
if [ -z "${LOADTEST_PIN:-}" ]; then
  LOADTEST_PIN=0
  if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then LOADTEST_PIN=1; fi
fi
pin_server=(); pin_client=()
if [ "$LOADTEST_PIN" = 1 ]; then
  # The Go runtime sizes GOMAXPROCS from the affinity mask: 1 here.
  pin_server=(taskset -c 1); pin_client=(taskset -c 0)
fi

if [ "$requests" = 0 ]; then
  echo "loadtest: LOADTEST_REQUESTS=0, skipped"
  exit 0
fi
if ! command -v h2load >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nghttp2-client >/dev/null) ||
      echo "loadtest: apt-get install nghttp2-client failed"
  fi
  if ! command -v h2load >/dev/null; then
    echo "loadtest: SKIPPED: h2load is not installed and could not be installed (apt-get install nghttp2-client)"
    exit 0
  fi
fi

tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/grpcserver" .

# A gRPC-framed request message: flag 0, 4-byte length, 32 bytes.
msg='metapack load test message 0123'
printf '\x00\x00\x00\x00\x20%s\n' "$msg" > "$tmp/body.bin"
[ "$(wc -c < "$tmp/body.bin")" = 37 ] || { echo "loadtest: bad body file"; exit 1; }

hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

start_server() {
  # Truncated here, not only by the redirection in the background job,
  # which may run after the first read below and leave the last run's
  # address in the file.
  : > "$tmp/server.out"
  "${pin_server[@]}" "$tmp/grpcserver" -addr 127.0.0.1:0 -codec "$1" > "$tmp/server.out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    addr=$(sed -n 's/^grpcserver: listening on \([^ ]*\) .*/\1/p' "$tmp/server.out")
    [ -n "$addr" ] && return 0
    sleep 0.1
  done
  { echo "loadtest: server did not start:"; cat "$tmp/server.out"; } >&2; exit 1
}

stop_server() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

run_h2load() { # n
  "${pin_client[@]}" h2load -n "$1" -c "$clients" -m "$streams" -d "$tmp/body.bin" \
    -H 'content-type: application/grpc' -H 'te: trailers' -H 'grpc-timeout: 99m' \
    -H 'user-agent: grpc-go/1.85.0' -H 'grpc-accept-encoding: gzip' \
    -H 'x-request-id: 3f2a9c4e-6b1d-4e8f-9a7c-2d5e8b1f0a63' \
    -H 'x-echo-tenant: acme-production' -H 'x-echo-trace: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' \
    -H 'authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsb2FkdGVzdCJ9.c2lnbmF0dXJl' \
    "${extra[@]}" "http://$addr/echo.Echo/Echo"
}

# one_run CODEC: prints "rps cpu_per_100k"
one_run() {
  start_server "$1"
  run_h2load $((requests / 10 + 1)) > "$tmp/warmup.out" 2>&1 || true
  before=$(cpu_ticks "$pid")
  run_h2load "$requests" > "$tmp/h2load.out" 2>&1 || { cat "$tmp/h2load.out" >&2; exit 1; }
  after=$(cpu_ticks "$pid")
  stop_server
  if ! grep -q "requests: $requests total, $requests started, $requests done, $requests succeeded, 0 failed" "$tmp/h2load.out" ||
     ! grep -q "status codes: $requests 2xx" "$tmp/h2load.out"; then
    { echo "loadtest: requests failed with -codec $1:"; cat "$tmp/h2load.out"; } >&2; exit 1
  fi
  rps=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$tmp/h2load.out")
  awk -v r="$rps" -v t=$((after - before)) -v hz="$hz" -v n="$requests" \
    'BEGIN { printf "%.0f %.4f\n", r, t / hz / n * 100000 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

pinning="unpinned"
[ "$LOADTEST_PIN" = 1 ] && pinning="server pinned to CPU 1, h2load to CPU 0"
echo "loadtest: h2load -n $requests -c $clients -m $streams, $rounds round(s) per codec, POST /echo.Echo/Echo, 37-byte body, $echo_headers extra echoed headers, $pinning"
: > "$tmp/metapack.res"; : > "$tmp/xnet.res"
for r in $(seq "$rounds"); do
  for codec in metapack xnet; do
    res=$(one_run "$codec")
    echo "  round $r  $codec: $(echo "$res" | awk '{printf "%8.0f req/s  %.3f CPU-s/100k req", $1, $2}')"
    echo "$res" >> "$tmp/$codec.res"
  done
done

m_rps=$(awk '{print $1}' "$tmp/metapack.res" | median); m_cpu=$(awk '{print $2}' "$tmp/metapack.res" | median)
x_rps=$(awk '{print $1}' "$tmp/xnet.res" | median); x_cpu=$(awk '{print $2}' "$tmp/xnet.res" | median)
m_best_rps=$(awk '{print $1}' "$tmp/metapack.res" | sort -g | tail -1); m_best_cpu=$(awk '{print $2}' "$tmp/metapack.res" | sort -g | head -1)
x_best_rps=$(awk '{print $1}' "$tmp/xnet.res" | sort -g | tail -1); x_best_cpu=$(awk '{print $2}' "$tmp/xnet.res" | sort -g | head -1)
awk -v mr="$m_rps" -v mc="$m_cpu" -v xr="$x_rps" -v xc="$x_cpu" \
    -v bmr="$m_best_rps" -v bmc="$m_best_cpu" -v bxr="$x_best_rps" -v bxc="$x_best_cpu" -v enforce="$enforce" 'BEGIN {
  printf "loadtest: medians (best of the rounds in brackets)\n"
  printf "  metapack: %8.0f req/s [%8.0f]  %.3f [%.3f] CPU-s per 100k requests\n", mr, bmr, mc, bmc
  printf "  xnet:     %8.0f req/s [%8.0f]  %.3f [%.3f] CPU-s per 100k requests\n", xr, bxr, xc, bxc
  rr = mr / xr; cr = mc / xc
  met = (rr >= 1.10 || cr <= 0.80)
  printf "  ratio metapack/xnet: %.3fx req/s [%.3fx], %.3fx CPU per request [%.3fx]\n", rr, bmr / bxr, cr, bmc / bxc
  printf "  target (medians: >= 1.10x req/s or <= 0.80x CPU per request): %s\n", met ? "met" : "NOT met"
  if (enforce == 1 && !met) exit 1
}'
