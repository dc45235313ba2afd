package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/story"
)

// plainStory is a one-case story, different from rfcC3.
const plainStory = `{"description": "d", "cases": [{"seqno": 7, "wire": "8286", "headers": [{":method": "GET"}, {":scheme": "http"}]}]}`

// TestStdin checks that "-" reads standard input in every command that
// reads stories, header blocks or fields, in its place among the operands.
func TestStdin(t *testing.T) {
	dir := writeFiles(t, map[string]string{"c3.json": rfcC3})
	c3 := filepath.Join(dir, "c3.json")
	badSecond := plainStory + "\n" + `{"cases": [{"wire": "zz", "headers": []}]}`
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		// stdout is the whole of it unless outHas is set, when each of
		// outHas must be in it instead.
		stdout string
		outHas []string
		stderr string // the whole of it
	}{
		{name: "inflate one story", stdin: rfcC3, args: []string{"inflate", "--check", "-"},
			stdout: "checked 1 stories, 3 cases: 0 mismatches, 0 errors\n"},
		{name: "inflate a stream", stdin: rfcC3 + "\n" + plainStory + "\n", args: []string{"inflate", "-", "--check"},
			stdout: "checked 2 stories, 4 cases: 0 mismatches, 0 errors\n"},
		{name: "inflate file and stdin", stdin: plainStory, args: []string{"inflate", "--check", c3, "-"},
			stdout: "checked 2 stories, 4 cases: 0 mismatches, 0 errors\n"},
		{name: "inflate to stdout", stdin: plainStory, args: []string{"inflate", "-"},
			outHas: []string{`"description": "d"`, `"wire": "8286"`, `":scheme": "http"`}},
		{name: "inflate names stdin", stdin: strings.Replace(plainStory, `"http"`, `"https"`, 1), args: []string{"inflate", "--check", "-"}, code: 1,
			stdout: "checked 1 stories, 1 cases: 1 mismatches, 0 errors\n",
			stderr: `metapack: stdin: seqno 7: header 1 is ":scheme": "http", want ":scheme": "https"` + "\n"},
		{name: "inflate names stdin[i]", stdin: plainStory + strings.Replace(plainStory, `"8286"`, `"82ff"`, 1), args: []string{"inflate", "--check", "-"}, code: 1,
			stdout: "checked 2 stories, 2 cases: 0 mismatches, 1 errors\n",
			stderr: "metapack: stdin[1]: seqno 7: offset 1: decoding error: header block ends inside a field\n"},
		{name: "inflate empty stdin", stdin: " \n", args: []string{"inflate", "-"}, code: 2,
			stderr: "metapack: stdin: empty input, want one or more JSON stories\n"},
		{name: "inflate bad JSON", stdin: `{"cases": [`, args: []string{"inflate", "-"}, code: 2,
			stderr: "metapack: stdin: invalid story JSON: unexpected EOF\n"},
		{name: "inflate bad second story", stdin: badSecond, args: []string{"inflate", "-"}, code: 2,
			stderr: `metapack: stdin[1]: case 0: bad hex in "wire": encoding/hex: invalid byte: U+007A 'z'` + "\n"},
		{name: "inflate stdin twice", stdin: rfcC3, args: []string{"inflate", "-", "-"}, code: 2,
			stderr: "metapack inflate: \"-\" (standard input) given 2 times, want at most once\nRun 'metapack inflate -h' for usage.\n"},
		{name: "deflate", stdin: plainStory, args: []string{"deflate", "-"},
			outHas: []string{`"description": "metapack deflate `, `"header_table_size": 4096`, `"wire": "8286"`}},
		{name: "deflate stdin twice", stdin: rfcC3, args: []string{"deflate", c3, "-", "-"}, code: 2,
			stderr: "metapack deflate: \"-\" (standard input) given 2 times, want at most once\nRun 'metapack deflate -h' for usage.\n"},
		{name: "ratio", stdin: rfcC3, args: []string{"ratio", "-", c3},
			outHas: []string{"\nstdin  ", "\n" + c3 + "  "}},
		{name: "ratio a stream", stdin: rfcC3 + plainStory, args: []string{"ratio", "-"},
			outHas: []string{"\nstdin[0]  ", "\nstdin[1]  ", "\ntotal  "}},
		{name: "ratio empty stdin", args: []string{"ratio", "-"}, code: 2,
			stderr: "metapack: stdin: empty input, want one or more JSON stories\n"},
		{name: "bench", stdin: rfcC3 + plainStory, args: []string{"bench", "--corpus", "-", "--time", "1ms", "--json"},
			outHas: []string{`{"name":"decode","impl":"metapack",`, `{"name":"intern","impl":"unique",`}},
		{name: "bench bad stdin", stdin: "[", args: []string{"bench", "--corpus", "-"}, code: 2,
			stderr: "metapack: --corpus: stdin: invalid story JSON: unexpected EOF\n"},
		{name: "decode", stdin: "828684418cf1e3c2e5f23a6ba0ab90f4ff\n", args: []string{"decode", "-"},
			stdout: ":method: GET\n:scheme: http\n:path: /\n:authority: www.example.com\n"},
		{name: "decode lines in place", stdin: "8286\n\n  84 be \r\n", args: []string{"decode", "41 0f 7777772e6578616d706c652e636f6d", "-", ""},
			stdout: "block 1:\n:authority: www.example.com\n\nblock 2:\n:method: GET\n:scheme: http\n\nblock 3:\n:path: /\n:authority: www.example.com\n\nblock 4:\n"},
		{name: "decode bad hex line", stdin: "8286\nzz\n", args: []string{"decode", "-"}, code: 2,
			stderr: "metapack: block 2: bad hex: invalid character 'z'\n"},
		{name: "decode blank stdin", stdin: "\n \n", args: []string{"decode", "-"}, code: 2,
			stderr: "metapack: stdin: no HEX block (its lines are all blank)\n"},
		{name: "decode stdin twice", stdin: "82", args: []string{"decode", "-", "-"}, code: 2,
			stderr: "metapack decode: \"-\" (standard input) given 2 times, want at most once\nRun 'metapack decode -h' for usage.\n"},
		{name: "encode", stdin: ":scheme:http\r\n\n:path: /\n", args: []string{"encode", ":method:GET", "-"},
			stdout: "828684\n"},
		{name: "encode bad line", stdin: ":path: /\nnovalue\n", args: []string{"encode", "-"}, code: 2,
			stderr: "metapack: field \"novalue\": want NAME:VALUE\n"},
		{name: "encode empty stdin", args: []string{"encode", "-"}, code: 2,
			stderr: "metapack: stdin: no NAME:VALUE field (its lines are all blank)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmdStdin(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if tt.outHas == nil && stdout != tt.stdout {
				t.Errorf("stdout %q\nwant   %q", stdout, tt.stdout)
			}
			for _, w := range tt.outHas {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			// bench reports its progress on stderr.
			if tt.args[0] != "bench" || tt.code != 0 {
				if stderr != tt.stderr {
					t.Errorf("stderr %q\nwant   %q", stderr, tt.stderr)
				}
			}
		})
	}
}

// TestStdinPipeline runs "metapack deflate DIR | metapack inflate --check -"
// and "... | metapack ratio -" as a shell would.
func TestStdinPipeline(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.json": rfcC3, "b.json": plainStory})
	code, deflated, stderr := runCmd(t, "deflate", dir)
	if code != 0 {
		t.Fatalf("deflate: exit code %d, stderr:\n%s", code, stderr)
	}
	code, stdout, stderr := runCmdStdin(t, deflated, "inflate", "--check", "-")
	if code != 0 || stdout != "checked 2 stories, 4 cases: 0 mismatches, 0 errors\n" || stderr != "" {
		t.Errorf("inflate --check -: exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmdStdin(t, deflated, "ratio", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("ratio -: exit code %d, stderr:\n%s", code, stderr)
	}
	rows := checkRatioTable(t, stdout, 2)
	if rows[0][0] != "stdin[0]" || rows[1][0] != "stdin[1]" {
		t.Errorf("ratio names the stories %q and %q, want stdin[0] and stdin[1]", rows[0][0], rows[1][0])
	}
}

// TestStdinOutDir checks the files -o DIR writes for stories from stdin:
// stdin.json for one story, stdin_NN.json for several.
func TestStdinOutDir(t *testing.T) {
	tests := []struct {
		name  string
		cmd   string
		stdin string
		want  []string // the files written, sorted
	}{
		{"inflate one", "inflate", plainStory, []string{"stdin.json"}},
		{"inflate several", "inflate", rfcC3 + plainStory + plainStory, []string{"stdin_00.json", "stdin_01.json", "stdin_02.json"}},
		{"deflate one", "deflate", rfcC3, []string{"stdin.json"}},
		{"deflate several", "deflate", rfcC3 + plainStory, []string{"stdin_00.json", "stdin_01.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, stderr := runCmdStdin(t, tt.stdin, tt.cmd, "-o", out, "-")
			if code != 0 || stdout != "" || stderr != "" {
				t.Fatalf("exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}
			got, err := story.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
				if len(s.Cases) == 0 || len(s.Cases[0].Wire) == 0 {
					t.Errorf("%s: no wire in %+v", s.Name, s.Cases)
				}
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("wrote %q, want %q", names, tt.want)
			}
		})
	}
}
