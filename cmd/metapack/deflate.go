package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/metapack/metapack/internal/story"
)

const deflateUsage = `Usage: metapack deflate [--table-size N] [-o DIR] FILE_OR_DIR...

Deflate encodes the header lists ("headers") of stories in the hpack-test-case
JSON format with metapack's HPACK encoder, one encoder per story, and writes
each story back in the same format with "wire" filled in: the headers are
kept, and the description names the encoder. A directory stands for every
*.json file in it (not recursive), and "-" for standard input, which holds
one story or several one after another (as inflate and deflate print
them); under -o they are written as stdin.json, or stdin_00.json,
stdin_01.json and so on.

Only "headers" and "header_table_size" are read, so raw-data/ stories work;
a "wire" in the input is replaced. A case's "header_table_size" is the
peer's new SETTINGS_HEADER_TABLE_SIZE before that case; absent or null
means unchanged. The encoder may use all of the table the peer allows, and
its default index policy decides what is indexed.

The output decodes with "metapack inflate --check".

Flags may come before or after the FILE_OR_DIR operands; "--" ends them.

Flags:
  --table-size N  the peer's SETTINGS_HEADER_TABLE_SIZE before the first
                  case, unless that case sets one: 0 to 2^32-1 (default
                  4096); it is written into the first case's
                  "header_table_size"
  -o DIR          write one file per input story into DIR (created if
                  needed), with the input's base name. Without -o the
                  stories go to standard output, one JSON document after
                  another.

Exit codes:
  0  success
  1  output that could not be written
  2  usage error or bad input: an unreadable file, bad JSON, a missing
     field, a header_table_size or --table-size above 2^32-1
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack deflate hpack-test-case/raw-data/story_00.json
  metapack deflate -o /tmp/metapack hpack-test-case/raw-data
  metapack deflate --table-size 256 -o /tmp/small hpack-test-case/raw-data
  metapack inflate --check /tmp/metapack
  metapack deflate - < hpack-test-case/raw-data/story_00.json
`

func runDeflate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("deflate", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	tableSize := fset.Uint64("table-size", story.DefaultHeaderTableSize, "the peer's initial table size")
	outDir := fset.String("o", "", "write one file per story into `DIR`")
	paths, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, deflateUsage)
		return 0
	}
	if err := checkOperands(err, paths, "FILE_OR_DIR", tableSize); err != nil {
		return usageError(stderr, "deflate", err)
	}

	inputs, err := readInputs(paths, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 2
	}
	outPaths, code := prepareOutputs(*outDir, inputs, stderr)
	if code != 0 {
		return code
	}
	for i, in := range inputs {
		var buf bytes.Buffer
		if err := deflateStory(in.story, int(*tableSize)).Write(&buf); err != nil {
			fmt.Fprintf(stderr, "metapack: %s: cannot write the encoded story: %v\n", in.path, err)
			return 1
		}
		if *outDir != "" {
			err = os.WriteFile(outPaths[i], buf.Bytes(), 0o644)
		} else {
			_, err = stdout.Write(buf.Bytes())
		}
		if err != nil {
			fmt.Fprintf(stderr, "metapack: %s: %v\n", in.path, err)
			return 1
		}
	}
	return 0
}

// deflateStory returns s with every case's wire encoded by one encoder of
// ours, for a peer whose table size is tableSize until a case sets one.
func deflateStory(s *story.Story, tableSize int) *story.Story {
	out := &story.Story{
		Description: fmt.Sprintf("metapack deflate (github.com/metapack/metapack/hpack), initial header table size %d", tableSize),
		Context:     s.Context,
		Name:        s.Name,
	}
	for _, c := range s.Cases {
		out.Cases = append(out.Cases, story.Case{
			Seqno:            c.Seqno,
			Headers:          c.Headers,
			HeaderTableSize:  c.HeaderTableSize,
			DynamicTableSize: -1,
		})
	}
	if len(out.Cases) > 0 && out.Cases[0].HeaderTableSize < 0 {
		out.Cases[0].HeaderTableSize = tableSize
	}
	for i, w := range encodeStory(out) {
		out.Cases[i].Wire = w
	}
	return out
}
