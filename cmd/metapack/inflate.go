package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
)

// Decoder limits for inflate. The corpora are trusted test data, so the
// list limits are effectively off; one string may take 1 MiB.
const (
	inflateMaxListSize  = 1 << 30
	inflateMaxFields    = 1 << 30
	inflateMaxStringLen = 1 << 20
)

// maxProblems is how many problems inflate prints before summing up the rest.
const maxProblems = 10

const inflateUsage = `Usage: metapack inflate [--check] [-o DIR] FILE_OR_DIR...

Inflate decodes the header blocks ("wire") of stories in the hpack-test-case
JSON format (https://github.com/http2jp/hpack-test-case), one HPACK decoder
per story, and writes each story back in the same format with "headers"
replaced by what was decoded; "wire" and the other fields are kept. A
directory stands for every *.json file in it (not recursive), and "-" for
standard input, which holds one story or several one after another (as
inflate and deflate print them); under -o they are written as stdin.json,
or stdin_00.json, stdin_01.json and so on.

A case's "header_table_size" is the SETTINGS_HEADER_TABLE_SIZE in force for
the decoder when the case is decoded, 0 to 2^32-1; absent or null means
unchanged, and it starts at 4096. Cases that carry "dynamic_table" or
"dynamic_table_size" (the RFC 7541 Appendix C data) get the decoder's
dynamic table after the case.

The decoder's limits are raised for test corpora: 2^30 bytes per header list
and 2^30 fields per list (in effect no limit), and 1 MiB per name or value.

A decoding error stops its story, since the decoder is unusable after one;
that story is not written. All inputs are read and validated before anything
is decoded or written.

Flags may come before or after the FILE_OR_DIR operands; "--" ends them.

Flags:
  --check   compare what was decoded with each case's "headers" (and its
            "dynamic_table" and "dynamic_table_size" when present), then
            print on standard output
                checked S stories, C cases: M mismatches, E errors
            and on standard error the file, seqno, byte offset (for decoding
            errors) and reason of the first %d problems. Without -o nothing
            else is written.
  -o DIR    write one file per input story into DIR (created if needed),
            with the input's base name. Without -o the decoded stories go to
            standard output, one JSON document after another.

Exit codes:
  0  success
  1  check mismatches, decoding errors, or output that could not be written
     (a write error, or decoded header bytes that are not UTF-8, which JSON
     cannot carry)
  2  usage error or bad input: an unreadable file, bad JSON, bad hex in
     "wire", a missing field, a header_table_size above 2^32-1, or a case
     without "wire" (raw-data/ stories have none)
  70 internal error: a bug in metapack (see "metapack help")

Examples:
  metapack inflate --check hpack-test-case/nghttp2
  metapack inflate --check rfc7541/appendix-*.json
  metapack inflate -o /tmp/decoded hpack-test-case/go-hpack
  metapack inflate hpack-test-case/nghttp2/story_00.json
  metapack deflate hpack-test-case/raw-data | metapack inflate --check -
`

// input is one story to inflate and the file it came from. For a story
// read from standard input, path is the name errors give it (see
// readStdinStories) and story.Name is its file name under -o.
type input struct {
	path  string
	story *story.Story
	stdin bool
}

// problem is a mismatch or a decoding error in one case.
type problem struct {
	path   string
	seqno  int
	offset int // byte offset in the case's wire, or -1
	what   string
}

func (p problem) String() string {
	if p.offset >= 0 {
		return fmt.Sprintf("metapack: %s: seqno %d: offset %d: %s", p.path, p.seqno, p.offset, p.what)
	}
	return fmt.Sprintf("metapack: %s: seqno %d: %s", p.path, p.seqno, p.what)
}

func runInflate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("inflate", flag.ContinueOnError)
	fset.SetOutput(io.Discard) // errors and help are printed below
	fset.Usage = func() {}
	check := fset.Bool("check", false, "compare with each case's headers and print a summary")
	outDir := fset.String("o", "", "write one file per story into `DIR`")
	paths, err := parseInterspersed(fset, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stdout, inflateUsage, maxProblems)
		return 0
	}
	if err := checkOperands(err, paths, "FILE_OR_DIR", nil); err != nil {
		return usageError(stderr, "inflate", err)
	}

	inputs, err := loadInputs(paths, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return 2
	}
	outPaths, code := prepareOutputs(*outDir, inputs, stderr)
	if code != 0 {
		return code
	}

	var (
		problems           []problem
		cases, mismatches  int
		decodeErrs, failed int // failed counts stories not written
	)
	for i, in := range inputs {
		res := inflateStory(in, *check)
		cases += res.cases
		mismatches += len(res.mismatches)
		problems = append(problems, res.mismatches...)
		if res.err != nil {
			decodeErrs++
			problems = append(problems, *res.err)
			continue
		}
		if *outDir == "" && *check {
			continue
		}
		var buf bytes.Buffer
		if err := res.out.Write(&buf); err != nil {
			// Write checks everything before writing anything, so no
			// partial story reaches the output.
			failed++
			fmt.Fprintf(stderr, "metapack: %s: cannot write the decoded story: %v\n", in.path, err)
			continue
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

	for i, p := range problems {
		if i == maxProblems {
			fmt.Fprintf(stderr, "metapack: ... and %d more problems\n", len(problems)-maxProblems)
			break
		}
		fmt.Fprintln(stderr, p)
	}
	if *check {
		fmt.Fprintf(stdout, "checked %d stories, %d cases: %d mismatches, %d errors\n",
			len(inputs), cases, mismatches, decodeErrs)
	}
	if len(problems) > 0 || failed > 0 {
		return 1
	}
	return 0
}

// parseInterspersed parses flags that may come before, between or after the
// operands, as in "inflate DIR --check". A "--" ends the flags.
func parseInterspersed(fset *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fset.Parse(args); err != nil {
			return nil, err
		}
		rest := fset.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// loadInputs reads every story named by paths, as readInputs does, and
// checks that each can be inflated. Errors name the file.
func loadInputs(paths []string, stdin io.Reader) ([]input, error) {
	inputs, err := readInputs(paths, stdin)
	if err != nil {
		return nil, err
	}
	for _, in := range inputs {
		for i, c := range in.story.Cases {
			if c.Wire == nil {
				return nil, fmt.Errorf("%s: case %d (seqno %d): no \"wire\" to decode (raw-data/ stories have none)", in.path, i, c.Seqno)
			}
		}
	}
	return inputs, nil
}

// readInputs reads every story named by paths, a directory standing for its
// *.json files and "-" for the stories on stdin (see readStdinStories), and
// checks their table sizes. Errors name the file.
func readInputs(paths []string, stdin io.Reader) ([]input, error) {
	var inputs []input
	for _, p := range paths {
		if p == stdinOperand {
			in, err := readStdinStories(stdin)
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, in...)
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, pathErr(p, err)
		}
		if !fi.IsDir() {
			s, err := story.ReadFile(p)
			if err != nil {
				return nil, pathErr(p, err)
			}
			inputs = append(inputs, input{path: p, story: s})
			continue
		}
		stories, err := story.ReadDir(p)
		if err != nil {
			return nil, pathErr(p, err)
		}
		if len(stories) == 0 {
			return nil, fmt.Errorf("%s: directory holds no *.json files", p)
		}
		for _, s := range stories {
			inputs = append(inputs, input{path: filepath.Join(p, s.Name), story: s})
		}
	}
	for _, in := range inputs {
		for i, c := range in.story.Cases {
			if int64(c.HeaderTableSize) > math.MaxUint32 { // int64: int may be 32 bits
				return nil, fmt.Errorf("%s: case %d (seqno %d): \"header_table_size\" %d is above 2^32-1", in.path, i, c.Seqno, c.HeaderTableSize)
			}
		}
	}
	return inputs, nil
}

// pathErr gives err the form "PATH: what is wrong". Errors from package
// story already start with the path (a file's, or for a directory the path
// of the file in it); those from package os carry it inside.
func pathErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	if strings.HasPrefix(err.Error(), path) { // the path or a file in it
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// prepareOutputs returns the output file of each input under -o dir (nil
// without -o) and creates dir; on failure it reports on stderr and returns
// the exit code.
func prepareOutputs(dir string, inputs []input, stderr io.Writer) ([]string, int) {
	if dir == "" {
		return nil, 0
	}
	paths, err := outputPaths(dir, inputs)
	if err != nil {
		fmt.Fprintf(stderr, "metapack: %v\n", err)
		return nil, 2
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "metapack: -o: %v\n", err)
		return nil, 1
	}
	return paths, 0
}

// outputPaths returns where -o DIR writes each input: DIR and the input's
// base name (a story from stdin has its own, see readStdinStories). Two
// inputs with the same base name, or an output that is its own input, are
// errors.
func outputPaths(dir string, inputs []input) ([]string, error) {
	out := make([]string, len(inputs))
	from := make(map[string]string)
	for i, in := range inputs {
		base := filepath.Base(in.path)
		if in.stdin {
			base = in.story.Name
		}
		if prev, ok := from[base]; ok {
			return nil, fmt.Errorf("-o %s: %s and %s would both be written to %s", dir, prev, in.path, base)
		}
		from[base] = in.path
		out[i] = filepath.Join(dir, base)
		ofi, err := os.Stat(out[i])
		if err != nil {
			continue
		}
		if in.stdin {
			continue
		}
		if ifi, err := os.Stat(in.path); err == nil && os.SameFile(ifi, ofi) {
			return nil, fmt.Errorf("-o %s: would overwrite the input %s", dir, in.path)
		}
	}
	return out, nil
}

// inflateResult is what inflating one story gave.
type inflateResult struct {
	out        *story.Story // the decoded story; nil after a decoding error
	cases      int          // cases decoded, the failing one included
	mismatches []problem    // with check: one per case that differs
	err        *problem     // the decoding error that stopped the story
}

// inflateStory decodes in.story's cases in order with one decoder. With
// check it compares each case with what the input says it holds.
func inflateStory(in input, check bool) inflateResult {
	s := in.story
	out := &story.Story{Description: s.Description, Context: s.Context, Name: s.Name, Cases: make([]story.Case, len(s.Cases))}
	var res inflateResult
	if len(s.Cases) == 0 {
		res.out = out
		return res
	}
	sizes := s.TableSizes()
	dec := newCorpusDecoder(uint32(sizes[0]))
	batch := mdelem.NewBatch(64, 4096)
	for i, c := range s.Cases {
		if i > 0 && sizes[i] != sizes[i-1] {
			dec.SetAllowedMaxDynamicTableSize(uint32(sizes[i]))
		}
		res.cases++
		batch.Reset()
		if err := dec.Decode(batch, c.Wire); err != nil {
			res.err = decodeProblem(in.path, c.Seqno, err)
			return res
		}
		oc := c
		oc.Headers = make([]story.Header, 0, batch.Len())
		for _, f := range batch.All() {
			oc.Headers = append(oc.Headers, story.Header{Name: f.Name.String(), Value: f.Value.String()})
		}
		if c.DynamicTable != nil {
			oc.DynamicTable = []story.Header{}
			for j := 0; ; j++ {
				n, v, ok := dec.DynamicEntry(j)
				if !ok {
					break
				}
				oc.DynamicTable = append(oc.DynamicTable, story.Header{Name: n, Value: v})
			}
		}
		if c.DynamicTableSize >= 0 {
			size, _ := dec.DynamicTableSize()
			oc.DynamicTableSize = int(size)
		}
		out.Cases[i] = oc
		if check {
			if what := compareCase(oc, c); what != "" {
				res.mismatches = append(res.mismatches, problem{in.path, c.Seqno, -1, what})
			}
		}
	}
	res.out = out
	return res
}

// newCorpusDecoder returns a decoder for tableSize with the limits raised
// for test corpora.
func newCorpusDecoder(tableSize uint32) *hpack.Decoder {
	dec := hpack.NewDecoder(tableSize)
	dec.SetMaxHeaderListSize(inflateMaxListSize)
	dec.SetMaxFields(inflateMaxFields)
	dec.SetMaxStringLength(inflateMaxStringLen)
	return dec
}

// decodeProblem describes a decoding error with its byte offset.
func decodeProblem(path string, seqno int, err error) *problem {
	p := &problem{path: path, seqno: seqno, offset: -1, what: err.Error()}
	var de *hpack.DecodingError
	switch {
	case !errors.As(err, &de):
	case de.Err == hpack.ErrInvalidIndex:
		p.offset = de.Offset
		p.what = fmt.Sprintf("decoding error: invalid index %d (the tables hold %d entries)", de.Index, de.Limit)
	case hpack.IsStreamError(de):
		p.offset = de.Offset
		p.what = fmt.Sprintf("%v (limit %d)", strings.TrimPrefix(de.Err.Error(), "hpack: "), de.Limit)
	default:
		p.offset = de.Offset
		p.what = "decoding error: " + strings.TrimPrefix(de.Err.Error(), "hpack: ")
	}
	return p
}

// compareCase returns what differs between the decoded case got and the
// input case want, or "" when they agree.
func compareCase(got, want story.Case) string {
	if what := compareHeaders("header", got.Headers, want.Headers); what != "" {
		return what
	}
	if want.DynamicTable != nil {
		if what := compareHeaders("dynamic table entry", got.DynamicTable, want.DynamicTable); what != "" {
			return what
		}
	}
	if want.DynamicTableSize >= 0 && got.DynamicTableSize != want.DynamicTableSize {
		return fmt.Sprintf("dynamic table size is %d, want %d", got.DynamicTableSize, want.DynamicTableSize)
	}
	return ""
}

func compareHeaders(what string, got, want []story.Header) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("%s %d is %s, want %s", what, i, showHeader(got[i]), showHeader(want[i]))
		}
	}
	switch {
	case len(got) > len(want):
		return fmt.Sprintf("decoded %d %ss, want %d; the first extra one is %s", len(got), what, len(want), showHeader(got[len(want)]))
	case len(got) < len(want):
		return fmt.Sprintf("decoded %d %ss, want %d; the first missing one is %s", len(got), what, len(want), showHeader(want[len(got)]))
	}
	return ""
}

// showHeader quotes h for a one-line message, shortening long values.
func showHeader(h story.Header) string {
	const maxLen = 60
	short := func(s string) string {
		if len(s) > maxLen {
			return fmt.Sprintf("%q...(%d bytes)", s[:maxLen], len(s))
		}
		return fmt.Sprintf("%q", s)
	}
	return short(h.Name) + ": " + short(h.Value)
}
