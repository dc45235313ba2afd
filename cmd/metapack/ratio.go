package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

const ratioUsage = `Usage: metapack ratio FILE_OR_DIR...

Ratio encodes the header lists of stories in the hpack-test-case JSON format
with metapack's encoder and with x/net's (golang.org/x/net/http2/hpack), and
prints a table of the compression they get, one row per story and the
totals last, as hpack-test-case's ratio table does:

  story          the story file
  header bytes   the sum of the name and value lengths of its header lists
  metapack       the bytes of metapack's header blocks, and their ratio to
                 the header bytes (lower is better)
  x/net          the same for x/net's encoder

Each story is one connection: one encoder of each kind, told before each
case of its "header_table_size" (the peer's SETTINGS_HEADER_TABLE_SIZE,
4096 until a case sets it). Both encoders may use all of the table the peer
allows. Only "headers" and "header_table_size" are read, so raw-data/
stories, which have no "wire", work as well as the encoder directories. A
directory stands for every *.json file in it (not recursive), and "-" for
standard input, which holds one story (shown as "stdin") or several one
after another (stdin[0], stdin[1]...), as inflate and deflate print them.

Exit codes:
  0  success
  1  the table could not be written
  2  usage error or bad input: an unreadable file, bad JSON, a missing
     field, a header_table_size above 2^32-1
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack ratio hpack-test-case/raw-data
  metapack ratio hpack-test-case/raw-data/story_00.json story_01.json
  metapack deflate hpack-test-case/raw-data | metapack ratio -
`

func runRatio(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("ratio", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	paths, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, ratioUsage)
		return 0
	}
	if err := checkOperands(err, paths, "FILE_OR_DIR", nil); err != nil {
		return usageError(stderr, "ratio", err)
	}
	inputs, err := readInputs(paths, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 2
	}

	width := len("total")
	for _, in := range inputs {
		width = max(width, len(in.path))
	}
	const format = "%-*s  %12s  %10s  %6s  %10s  %6s\n"
	w := &errWriter{w: stdout}
	w.printf(format, width, "story", "header bytes", "metapack", "ratio", "x/net", "ratio")
	var total struct{ header, ours, xnet int }
	for _, in := range inputs {
		header := headerBytes(in.story)
		ours, xnet := wireBytes(encodeStory(in.story)), wireBytes(encodeStoryXnet(in.story))
		total.header += header
		total.ours += ours
		total.xnet += xnet
		w.printf(format, width, in.path, fmt.Sprint(header), fmt.Sprint(ours), ratio(ours, header), fmt.Sprint(xnet), ratio(xnet, header))
	}
	w.printf(format, width, "total", fmt.Sprint(total.header), fmt.Sprint(total.ours), ratio(total.ours, total.header), fmt.Sprint(total.xnet), ratio(total.xnet, total.header))
	if w.err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", w.err)
		return 1
	}
	return 0
}

func wireBytes(wires [][]byte) int {
	n := 0
	for _, w := range wires {
		n += len(w)
	}
	return n
}

// ratio formats wire/header as hpack-test-case does, or "-" for no headers.
func ratio(wire, header int) string {
	if header == 0 {
		return "-"
	}
	return fmt.Sprintf("%.4f", float64(wire)/float64(header))
}

// errWriter keeps the first write error, so a table can be printed without
// checking each line.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
