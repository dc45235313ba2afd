package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/metapack/metapack/internal/qif"
)

const qpackEncodeUsage = `Usage: metapack qpack-encode [--capacity N] [--blocked N] [--ack 0|1] FILE.qif

Qpack-encode encodes the header sets of a QIF (one "name<TAB>value" line
per field, sets separated by blank lines, "#" lines ignored) with one
metapack QPACK encoder, set N on stream N, and writes its output to standard
output in the offline-interop format
(https://github.com/quicwg/base-drafts/wiki/QPACK-Offline-Interop): records
of a big-endian 64-bit stream ID, a big-endian 32-bit length and that many
bytes. Before a section, a record of stream 0 carries the encoder-stream
bytes it needs, when there are any. "-" reads the QIF from standard input.

Flags:
  --ack 0|1     the ack mode: 1 (default) decodes each section at once with a
                metapack decoder and gives its acknowledgements back to the
                encoder before the next set, as a peer would; 0 gives none
  --blocked N   the decoder's SETTINGS_QPACK_BLOCKED_STREAMS, 0 to 2^32-1
                (default 100)
  --capacity N  the decoder's SETTINGS_QPACK_MAX_TABLE_CAPACITY, 0 to 2^32-1
                (default 4096); 0 is static table only
  The output file's name in the corpus's convention is
  <qif>.out.<capacity>.<blocked>.<ack>.

Exit codes:
  0  success
  1  output that could not be written, or, with --ack 1, a section that the
     metapack decoder does not decode (a bug in metapack's QPACK codec)
  2  usage error or bad input: not exactly one FILE.qif, a flag outside its
     range, an unreadable file, or a QIF line without a tab
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack qpack-encode --capacity 4096 --blocked 100 --ack 1 fb-req.qif > fb-req.out.4096.100.1
  metapack qpack-encode --capacity 0 --blocked 0 --ack 0 netbsd.qif | metapack qpack-decode --capacity 0 --blocked 0 -
`

func runQpackEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("qpack-encode", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	capacity := fset.Uint64("capacity", 4096, "the decoder's max table capacity")
	blocked := fset.Uint64("blocked", 100, "the decoder's max blocked streams")
	ack := fset.Uint64("ack", 1, "the ack mode")
	operands, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, qpackEncodeUsage)
		return 0
	}
	switch {
	case err != nil:
	case len(operands) != 1:
		err = fmt.Errorf("want one FILE.qif, got %d operands", len(operands))
	case *capacity > math.MaxUint32:
		err = fmt.Errorf("--capacity %d is above 2^32-1", *capacity)
	case *blocked > math.MaxUint32:
		err = fmt.Errorf("--blocked %d is above 2^32-1", *blocked)
	case *ack > 1:
		err = fmt.Errorf("--ack %d: want 0 or 1", *ack)
	}
	if err != nil {
		return usageError(stderr, "qpack-encode", err)
	}
	name, data, code := readOperand(operands[0], stdin, stderr)
	if code != 0 {
		return code
	}
	sets, err := qif.Parse(data)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %s: %v\n", name, err)
		return 2
	}
	out, err := qif.Encode(sets, qif.Config{Capacity: *capacity, Blocked: *blocked, Ack: *ack == 1})
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %s: %v\n", name, err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 1
	}
	return 0
}
