package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/metapack/metapack/internal/qif"
)

const qpackDecodeUsage = `Usage: metapack qpack-decode [--capacity N] [--blocked N] FILE

Qpack-decode decodes FILE, a QPACK encoder's output in the offline-interop
format (https://github.com/quicwg/base-drafts/wiki/QPACK-Offline-Interop:
records of a big-endian 64-bit stream ID, a big-endian 32-bit length and
that many bytes; stream 0 is the encoder stream, every other stream one
field section), with one metapack QPACK decoder, and prints the header sets
as a QIF: in stream-ID order, one "name<TAB>value" line per field and a
blank line after each set. Encoder-stream records are fed to the decoder
in order; a section that refers to entries not yet inserted waits (blocked)
until they are. "-" reads FILE from standard input.

The corpus's files (github.com/qpackers/qifs, written for draft 05) send no
Set Dynamic Table Capacity: the table then started at the decoder's
maximum. So the decoder is given one of --capacity before the first record
(RFC 9204 starts the table at 0); byte offsets in encoder-stream errors
count it. Records are numbered from 1 in errors.

Flags:
  --blocked N   our SETTINGS_QPACK_BLOCKED_STREAMS, 0 to 2^32-1
  --capacity N  our SETTINGS_QPACK_MAX_TABLE_CAPACITY, 0 to 2^32-1
  Each defaults to the value in FILE's name when it follows the corpus's
  convention <qif>.out.<capacity>.<blocked>.<ack>, and must be given
  otherwise.

Exit codes:
  0  success
  1  a section or encoder-stream record that does not decode (the error
     names the record, the stream, the byte offset and the reason), a
     section still blocked at the end, a stream with two sections, or
     output that could not be written
  2  usage error or bad input: not exactly one FILE, a flag outside its
     range or missing, an unreadable FILE, or a record cut short
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack qpack-decode qifs/encoded/qpack-05/ls-qpack/fb-req.out.4096.100.1
  metapack qpack-decode --capacity 4096 --blocked 100 - < fb-req.out.4096.100.1
  metapack qpack-encode netbsd.qif | metapack qpack-decode --capacity 4096 --blocked 100 -
`

func runQpackDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("qpack-decode", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	capacity := fset.Uint64("capacity", 0, "our max table capacity")
	blocked := fset.Uint64("blocked", 0, "our max blocked streams")
	operands, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, qpackDecodeUsage)
		return 0
	}
	if err == nil && len(operands) != 1 {
		err = fmt.Errorf("want one FILE, got %d operands", len(operands))
	}
	var cfg qif.Config
	if err == nil {
		cfg, err = qpackDecodeConfig(fset, operands[0], *capacity, *blocked)
	}
	if err != nil {
		return usageError(stderr, "qpack-decode", err)
	}
	name, data, code := readOperand(operands[0], stdin, stderr)
	if code != 0 {
		return code
	}
	recs, err := qif.ParseRecords(data)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %s: %v\n", name, err)
		return 2
	}
	sets, err := qif.Decode(recs, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %s: %v\n", name, err)
		return 1
	}
	if _, err := stdout.Write(qif.Append(nil, qif.InOrder(sets))); err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 1
	}
	return 0
}

// qpackDecodeConfig returns the decoder's settings: the flags given, and
// for a flag not given, the value in file's name.
func qpackDecodeConfig(fset *flag.FlagSet, file string, capacity, blocked uint64) (qif.Config, error) {
	given := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { given[f.Name] = true })
	cfg := qif.Config{Capacity: capacity, Blocked: blocked}
	if !given["capacity"] || !given["blocked"] {
		_, named, err := qif.ParseName(file)
		if file == stdinOperand || err != nil {
			missing := "--capacity"
			if given["capacity"] {
				missing = "--blocked"
			}
			return qif.Config{}, fmt.Errorf("%s not given, and FILE %q does not name it (<qif>.out.<capacity>.<blocked>.<ack>)", missing, file)
		}
		if !given["capacity"] {
			cfg.Capacity = named.Capacity
		}
		if !given["blocked"] {
			cfg.Blocked = named.Blocked
		}
	}
	if cfg.Capacity > math.MaxUint32 {
		return qif.Config{}, fmt.Errorf("--capacity %d is above 2^32-1", cfg.Capacity)
	}
	if cfg.Blocked > math.MaxUint32 {
		return qif.Config{}, fmt.Errorf("--blocked %d is above 2^32-1", cfg.Blocked)
	}
	return cfg, nil
}

// readOperand reads the file a qpack command names, or standard input
// for "-", and returns the name its messages use; on failure it reports
// to stderr and returns the exit code, 2.
func readOperand(operand string, r io.Reader, stderr io.Writer) (name string, data []byte, code int) {
	name = operand
	var err error
	if operand == stdinOperand {
		name = "stdin"
		if data, err = io.ReadAll(r); err != nil {
			err = fmt.Errorf("stdin: %w", err)
		}
	} else {
		data, err = os.ReadFile(operand) // its error names the file
	}
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return "", nil, 2
	}
	return name, data, 0
}
