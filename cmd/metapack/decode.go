package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/metapack/metapack/mdelem"
)

const decodeUsage = `Usage: metapack decode [--table-size N] [--explain] HEX...

Decode decodes HPACK header blocks given in hex, one block per argument, in
order with one decoder (as on one connection, so later blocks may refer to
entries that earlier ones added), and prints their fields, one per line as
"name: value". Names and values that are not printable ASCII, or that have
leading or trailing spaces, are quoted in Go syntax. With several blocks,
each one's fields follow a "block N:" line. Spaces inside HEX are ignored;
"" is an empty block. The operand "-" stands for the lines of standard
input, one block per line (blank lines are skipped), in its place among the
operands; a block split over several lines, as "xxd -p" prints it, must be
joined first (xxd -p FILE | tr -d '\n').

Flags:
  --explain       print instead, for each block, an annotated breakdown of
                  its representations (RFC 7541 section 6) with the byte
                  offset and the bytes of each: indexed fields, literals
                  (with incremental indexing, without indexing, never
                  indexed; the name indexed or literal), raw or Huffman
                  strings and what they hold, dynamic table size updates,
                  and the entries the dynamic table gains and loses
  --table-size N  our SETTINGS_HEADER_TABLE_SIZE, 0 to 2^32-1 (default 4096)

Exit codes:
  0  success
  1  a block that does not decode: the error names the block, the byte
     offset and the reason
  2  usage error or bad input: no HEX, HEX that is not hex, a --table-size
     outside 0 to 2^32-1, or standard input that cannot be read
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack decode 828684410f7777772e6578616d706c652e636f6d
  metapack decode --explain 828684418cf1e3c2e5f23a6ba0ab90f4ff 828684be5886a8eb10649cbf
  metapack decode "82 86 84 41 0f 77 77 77 2e 65 78 61 6d 70 6c 65 2e 63 6f 6d"
  metapack encode :method:GET :path:/ | metapack decode -
`

func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("decode", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	explain := fset.Bool("explain", false, "print an annotated breakdown")
	tableSize := fset.Uint64("table-size", 4096, "our table size")
	operands, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, decodeUsage)
		return 0
	}
	if err := checkOperands(err, operands, "HEX", tableSize); err != nil {
		return usageError(stderr, "decode", err)
	}
	if operands, err = expandStdin(operands, stdin); err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 2
	}
	if len(operands) == 0 {
		fmt.Fprintf(stderr, "metapack: stdin: no HEX block (its lines are all blank)\n")
		return 2
	}
	blocks := make([][]byte, len(operands))
	for i, op := range operands {
		if blocks[i], err = parseHex(op); err != nil {
			fmt.Fprintf(stderr, "metapack: block %d: %v\n", i+1, err)
			return 2
		}
	}

	dec := newCorpusDecoder(uint32(*tableSize))
	ex := newExplainer(stdout, uint32(*tableSize))
	batch := mdelem.NewBatch(64, 4096)
	w := &errWriter{w: stdout}
	for i, b := range blocks {
		batch.Reset()
		decErr := dec.Decode(batch, b)
		if *explain {
			if i > 0 {
				w.printf("\n")
			}
			// The breakdown goes as far as it can, also for a bad block.
			if err := ex.block(i+1, b); err != nil && decErr == nil {
				fmt.Fprintf(stderr, "metapack: block %d: %v\n", i+1, err)
				return 1
			}
		}
		if decErr != nil {
			p := decodeProblem("", 0, decErr)
			where := fmt.Sprintf("block %d", i+1)
			if p.offset >= 0 {
				where += fmt.Sprintf(": offset %d", p.offset)
			}
			fmt.Fprintf(stderr, "metapack: %s: %s\n", where, p.what)
			return 1
		}
		switch {
		case *explain:
			continue
		case len(blocks) > 1 && i > 0:
			w.printf("\nblock %d:\n", i+1)
		case len(blocks) > 1:
			w.printf("block %d:\n", i+1)
		}
		for _, f := range batch.All() {
			w.printf("%s: %s\n", show(f.Name.String()), show(f.Value.String()))
		}
	}
	if w.err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", w.err)
		return 1
	}
	return 0
}

// parseHex decodes s, ignoring spaces, and names what is wrong with it.
func parseHex(s string) ([]byte, error) {
	s = strings.Join(strings.Fields(s), "")
	b, err := hex.DecodeString(s)
	var ie hex.InvalidByteError
	switch {
	case errors.As(err, &ie):
		return nil, fmt.Errorf("bad hex: invalid character %q", rune(ie))
	case errors.Is(err, hex.ErrLength):
		return nil, fmt.Errorf("bad hex: odd number of digits (%d)", len(s))
	}
	return b, err
}
