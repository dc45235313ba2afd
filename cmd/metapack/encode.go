package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
)

const encodeUsage = `Usage: metapack encode [--table-size N] [--explain] NAME:VALUE...

Encode encodes the fields given, in order, as one HPACK header block with a
new metapack encoder, and prints the block in hex. A field is NAME:VALUE;
a pseudo-header's name keeps its colon (":method:GET"), and spaces after
the separating colon are dropped ("accept: */*"). Names must be lowercase,
as HTTP/2 requires. The encoder's default index policy (see
hpack.Encoder) decides how each field is sent; authorization,
for example, is never indexed. --explain shows what it chose. The operand
"-" stands for the lines of standard input, one NAME:VALUE per line (blank
lines are skipped), in its place among the operands.

Flags:
  --explain       after the hex, print the annotated breakdown of the block
                  that "metapack decode --explain" prints
  --table-size N  the peer's SETTINGS_HEADER_TABLE_SIZE, 0 to 2^32-1
                  (default 4096)

Exit codes:
  0  success
  1  output that could not be written
  2  usage error or bad input: no fields, a field that is not NAME:VALUE
     with a non-empty lowercase NAME, a --table-size outside 0 to 2^32-1,
     or standard input that cannot be read
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack encode :method:GET :scheme:http :path:/ :authority:www.example.com
  metapack encode --explain :status:200 content-type:application/grpc
  metapack encode "user-agent: curl/8.5.0" "accept: */*"
  printf 'te: trailers\ngrpc-timeout: 1S\n' | metapack encode :method:POST -
`

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("encode", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	explain := fset.Bool("explain", false, "print an annotated breakdown")
	tableSize := fset.Uint64("table-size", hpack.DefaultTableSize, "the peer's table size")
	operands, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, encodeUsage)
		return 0
	}
	if err := checkOperands(err, operands, "NAME:VALUE", tableSize); err != nil {
		return usageError(stderr, "encode", err)
	}
	if operands, err = expandStdin(operands, stdin); err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 2
	}
	if len(operands) == 0 {
		fmt.Fprintf(stderr, "metapack: stdin: no NAME:VALUE field (its lines are all blank)\n")
		return 2
	}
	batch := mdelem.NewBatch(len(operands), 0)
	for _, op := range operands {
		name, value, err := parseField(op)
		if err != nil {
			fmt.Fprintf(stderr, "metapack: %v\n", err)
			return 2
		}
		batch.Append(mdelem.From(mdelem.BorrowString(name), mdelem.BorrowString(value)))
	}

	block := hpack.NewEncoder(uint32(*tableSize)).AppendBlock(nil, batch)
	w := &errWriter{w: stdout}
	w.printf("%x\n", block)
	if *explain && w.err == nil {
		w.printf("\n")
		if err := newExplainer(stdout, uint32(*tableSize)).block(1, block); err != nil {
			fmt.Fprintf(stderr, "metapack: %v\n", err)
			return 1
		}
	}
	if w.err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", w.err)
		return 1
	}
	return 0
}

// parseField splits a NAME:VALUE argument. A leading colon belongs to the
// name; spaces and tabs after the separator are dropped.
func parseField(arg string) (name, value string, err error) {
	i := strings.IndexByte(arg[min(1, len(arg)):], ':')
	if i < 0 {
		return "", "", fmt.Errorf("field %q: want NAME:VALUE", arg)
	}
	i += min(1, len(arg))
	name, value = arg[:i], strings.TrimLeft(arg[i+1:], " \t")
	switch {
	case name == "" || name == ":":
		return "", "", fmt.Errorf("field %q: empty name", arg)
	case strings.ToLower(name) != name:
		return "", "", fmt.Errorf("field %q: name %q has uppercase letters (HTTP/2 names are lowercase)", arg, name)
	}
	return name, value, nil
}
