package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/metapack/metapack/internal/story"
)

const benchUsage = `Usage: metapack bench [--time D] [--corpus DIR] [--json] [--svg FILE]

Bench measures metapack beside its peer on the same data in one process:

  measurement     op            metapack                 peer
  decode          header block  hpack.Decoder            x/net hpack.Decoder
  encode          header list   hpack.Encoder            x/net hpack.Encoder
  huffman-decode  string        AppendHuffmanDecode      x/net HuffmanDecode
  huffman-encode  string        AppendHuffmanString      x/net AppendHuffmanString
  intern          string        intern.Make              unique.Make

and prints for each the ns/op, MB/s and allocs/op of both, and the speedup:
the peer's ns/op divided by ours (above 1x, metapack is faster). A legend
under the table says what each column counts.

The corpus is built in: the synthetic gRPC workload (600 header lists) and
browser workload (300) of the project, encoded by x/net's encoder, and the
RFC 7541 Appendix C examples. With --corpus DIR it is the *.json stories of
DIR in the hpack-test-case format instead, and with --corpus - the stories
on standard input, one or several one after another (as inflate and
deflate print them). A story whose cases all have
"wire" is decoded from it; any other story (raw-data/) is first encoded by
metapack's encoder, and that is what both decoders decode. The encoders
encode every story's "headers", one encoder per story, following its
"header_table_size". The Huffman and intern rows take every non-empty name
and value of the headers, in order; the intern rows start from tables that
already hold them all.

Steady state: our decoders and encoders are Reset per story, and batches
and buffers are reused. x/net's Decoder and Encoder have no Reset, so they
are made anew per story (that is, per connection), which counts in their
ns/op and allocs/op. Each implementation runs for --time in 3 rounds, the
two taking turns, and its best round counts. MB/s counts the input: wire
bytes for decode, name and value bytes for encode, Huffman-encoded bytes for
huffman-decode, string bytes for huffman-encode and intern.

Flags:
  --time D       time for each implementation of each measurement, as a Go
                 duration (default 1s); a run takes about 10 times D
  --corpus DIR   run on the stories in DIR instead of the built-in corpus;
                 "-" reads them from standard input
  --json         print one JSON object per line for each measurement and
                 implementation instead of the table:
                   {"name":"decode","impl":"x/net","ns_op":...,"mb_s":...,"allocs_op":...}
  --svg FILE     also write a bar chart of the speedups to FILE, as SVG

Progress goes to standard error.

Exit codes:
  0  success
  1  a measurement failed (a story that does not decode) or FILE could not
     be written
  2  usage error or bad input: a bad flag or an unreadable corpus
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack bench
  metapack bench --time 200ms --svg bench.svg
  metapack bench --corpus hpack-test-case/nghttp2 --json > nghttp2.jsonl
  metapack bench --corpus hpack-test-case/raw-data
  metapack deflate hpack-test-case/raw-data | metapack bench --corpus -
`

// benchRow is one measurement's results: ours, then the peer's.
type benchRow struct {
	m       measurement
	results []result
}

// speedup is the peer's ns/op divided by ours.
func (r benchRow) speedup() float64 { return r.results[1].NsOp / r.results[0].NsOp }

func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("bench", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	d := fset.Duration("time", time.Second, "time for each measurement")
	corpusDir := fset.String("corpus", "", "run on the stories in `DIR`")
	asJSON := fset.Bool("json", false, "print JSON lines")
	svgFile := fset.String("svg", "", "write a chart to `FILE`")
	operands, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, benchUsage)
		return 0
	}
	if err == nil && len(operands) > 0 {
		err = fmt.Errorf("unexpected argument %q (use --corpus DIR for a corpus)", operands[0])
	}
	if err == nil && *d <= 0 {
		err = fmt.Errorf("--time %v: want a positive duration", *d)
	}
	if err != nil {
		fmt.Fprintf(stderr, "metapack bench: %v\nRun 'metapack bench -h' for usage.\n", err)
		return 2
	}

	var stories []*story.Story
	corpusName := "built-in corpus"
	if *corpusDir != "" {
		corpusName = *corpusDir
		if corpusName == stdinOperand {
			corpusName = "standard input"
		}
		inputs, err := readInputs([]string{*corpusDir}, stdin)
		for _, in := range inputs {
			in.story.Name = in.path // for errors
			stories = append(stories, in.story)
		}
		if err != nil {
			fmt.Fprintf(stderr, "metapack: --corpus: %v\n", err)
			return 2
		}
	} else if stories, err = embeddedCorpus(); err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 1
	}
	corpus, err := newBenchCorpus(stories)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %s: %v\n", corpusName, err)
		return 2
	}
	header := fmt.Sprintf("%s: %s; %v per implementation, best of %d rounds", corpusName, corpus.describe(), *d, benchRounds)
	fmt.Fprintf(stderr, "metapack bench: %s\n", header)

	var svg *os.File
	if *svgFile != "" {
		// Created now, so that a bad path fails before the measurements.
		if svg, err = os.Create(*svgFile); err != nil {
			fmt.Fprintf(stderr, "metapack: --svg: %v\n", err)
			return 1
		}
		defer svg.Close()
	}

	var rows []benchRow
	ms := corpus.measurements()
	for i, m := range ms {
		impls := m.setup()
		fmt.Fprintf(stderr, "metapack bench: [%d/%d] %s: %s vs %s\n", i+1, len(ms), m.name, impls[0].name, impls[1].name)
		results, err := measure(m.name, m.work, impls, *d)
		if err != nil {
			fmt.Fprintln(stderr, err) // it starts "metapack: PATH: "
			return 1
		}
		rows = append(rows, benchRow{m, results})
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range rows {
			for _, res := range r.results {
				if err := enc.Encode(res); err != nil {
					fmt.Fprintf(stderr, "metapack: %v\n", err)
					return 1
				}
			}
		}
	} else {
		fmt.Fprintf(stdout, "%s\n\n", header)
		writeBenchTable(stdout, rows)
	}
	if svg != nil {
		subtitle := fmt.Sprintf("%s; %v per implementation, best of %d rounds", corpusName, *d, benchRounds)
		if err := writeBenchSVG(svg, subtitle, rows); err != nil {
			fmt.Fprintf(stderr, "metapack: --svg: %v\n", err)
			return 1
		}
	}
	return 0
}

// writeBenchTable prints rows as a table, ours and the peer's side by side,
// and under it what the columns count.
func writeBenchTable(w io.Writer, rows []benchRow) {
	const format = "%-14s  %-12s  %-16s  %-8s %10s %9s %9s   %-8s %10s %9s %9s  %7s\n"
	fmt.Fprintf(w, format, "measurement", "op", "MB/s of", "impl", "ns/op", "MB/s", "allocs/op", "peer", "ns/op", "MB/s", "allocs/op", "speedup")
	fmt.Fprintln(w, strings.Repeat("-", 139))
	for _, r := range rows {
		ours, peer := r.results[0], r.results[1]
		fmt.Fprintf(w, format, r.m.name, r.m.op, r.m.per+" bytes",
			ours.Impl, fmtFloat(ours.NsOp, 1), fmtFloat(ours.MBs, 1), fmtFloat(ours.AllocsOp, 2),
			peer.Impl, fmtFloat(peer.NsOp, 1), fmtFloat(peer.MBs, 1), fmtFloat(peer.AllocsOp, 2),
			fmt.Sprintf("%.2fx", r.speedup()))
	}
	fmt.Fprint(w, benchLegend)
}

// benchLegend says under the table what it measures.
const benchLegend = `
speedup = peer ns/op ÷ metapack ns/op: above 1x, metapack is faster.
ns/op is per header block (decode), header list (encode) or string.
MB/s counts different bytes per row (column "MB/s of"): compare MB/s
within a row, not down the table.
x/net's Decoder and Encoder have no Reset, so they are made anew per
story (one connection), and that counts in their ns/op and allocs/op;
metapack's are made once and Reset per story.
`

func fmtFloat(v float64, prec int) string { return fmt.Sprintf("%.*f", prec, v) }
