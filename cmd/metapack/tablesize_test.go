package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// c41 (explain_test.go) adds ":authority: www.example.com" (57 bytes) to the
// dynamic table, and c4ref is c41 with that field indexed (index 62) instead.
// c4Fields is what both decode to.
const c4ref = "828684be"

const c4Fields = ":method: GET\n:scheme: http\n:path: /\n:authority: www.example.com\n"

// tableSizes are table sizes from 0 to 2^32-1, among them those at and above
// 2^31, where 2*size overflows 32 bits.
var tableSizes = []uint64{0, 1, 56, 57, 4096, 1 << 20, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 - 1}

// TestTableSizeFlag checks that --table-size takes every 32-bit value, in
// decode, decode --explain, encode and deflate, and that the blocks decode.
func TestTableSizeFlag(t *testing.T) {
	for _, size := range tableSizes {
		n := fmt.Sprint(size)
		t.Run(n, func(t *testing.T) {
			// The 57-byte entry stays in a table that can hold it, and
			// empties a smaller one.
			wantOut, wantErr := "block 1:\n"+c4Fields+"\nblock 2:\n"+c4Fields, ""
			refCode := 0
			if size < 57 {
				wantOut, refCode = "block 1:\n"+c4Fields, 1
				wantErr = "metapack: block 2: offset 3: decoding error: invalid index 62 (the tables hold 61 entries)\n"
			}
			code, stdout, stderr := runCmd(t, "decode", "--table-size", n, c41, c4ref)
			if code != refCode || stdout != wantOut || stderr != wantErr {
				t.Errorf("decode --table-size %s: exit code %d, stdout:\n%s\nstderr %q\nwant %d,\n%s\nand %q", n, code, stdout, stderr, refCode, wantOut, wantErr)
			}

			code, stdout, stderr = runCmd(t, "decode", "--explain", "--table-size", n, c41)
			want := fmt.Sprintf("dynamic table after block 1: 1 entry, size 57 of %s\n", n)
			if size < 57 {
				want = fmt.Sprintf("dynamic table after block 1: 0 entries, size 0 of %s\n", n)
			}
			if code != 0 || !strings.HasSuffix(stdout, want) {
				t.Errorf("decode --explain --table-size %s: exit code %d, stdout:\n%s\nwant it to end with %q; stderr:\n%s", n, code, stdout, want, stderr)
			}

			// A size update to the maximum, and one above it.
			code, stdout, stderr = runCmd(t, "decode", "--table-size", n, hexSizeUpdate(size)+c41)
			if code != 0 || stdout != c4Fields {
				t.Errorf("decode --table-size %s of an update to %s: exit code %d, stdout %q, stderr:\n%s", n, n, code, stdout, stderr)
			}
			if size < 1<<32-1 {
				code, _, stderr = runCmd(t, "decode", "--table-size", n, hexSizeUpdate(size+1)+c41)
				if code != 1 || !strings.Contains(stderr, "dynamic table size update above the advertised maximum") {
					t.Errorf("decode --table-size %s of an update to %d: exit code %d, stderr %q; want 1 and the update rejected", n, size+1, code, stderr)
				}
			}

			code, hexOut, stderr := runCmd(t, "encode", "--explain", "--table-size", n, ":method:GET", ":authority:www.example.com", "x-custom:value")
			if code != 0 {
				t.Fatalf("encode --table-size %s: exit code %d, stderr:\n%s", n, code, stderr)
			}
			block, _, _ := strings.Cut(hexOut, "\n")
			code, stdout, stderr = runCmd(t, "decode", "--table-size", n, block)
			if want := ":method: GET\n:authority: www.example.com\nx-custom: value\n"; code != 0 || stdout != want {
				t.Errorf("decode --table-size %s of encode's %s: exit code %d, stdout %q, stderr:\n%s", n, block, code, stdout, stderr)
			}

			code, deflated, stderr := runCmdStdin(t, plainStory, "deflate", "--table-size", n, "-")
			if code != 0 || !strings.Contains(deflated, fmt.Sprintf(`"header_table_size": %s,`, n)) {
				t.Fatalf("deflate --table-size %s: exit code %d, stdout:\n%s\nstderr:\n%s", n, code, deflated, stderr)
			}
			code, stdout, stderr = runCmdStdin(t, deflated, "inflate", "--check", "-")
			if code != 0 || stdout != "checked 1 stories, 1 cases: 0 mismatches, 0 errors\n" {
				t.Errorf("inflate --check of deflate --table-size %s: exit code %d, stdout %q, stderr:\n%s", n, code, stdout, stderr)
			}
		})
	}
}

// hexSizeUpdate returns a dynamic table size update to size (RFC 7541
// section 6.3), in hex.
func hexSizeUpdate(size uint64) string {
	if size < 31 {
		return fmt.Sprintf("%02x", 0x20|size)
	}
	b := []byte{0x3f}
	for size -= 31; size >= 0x80; size >>= 7 {
		b = append(b, byte(size)|0x80)
	}
	return fmt.Sprintf("%x", append(b, byte(size)))
}

// TestTableSizeFlagRange checks that a --table-size outside 0 to 2^32-1 is a
// usage error, not a size that wraps.
func TestTableSizeFlagRange(t *testing.T) {
	tests := []struct {
		value string
		want  string // in the first line of stderr
	}{
		{"4294967296", "--table-size 4294967296 is above 2^32-1"},
		{"8589934592", "--table-size 8589934592 is above 2^32-1"},
		{"18446744073709551615", "--table-size 18446744073709551615 is above 2^32-1"},
		{"18446744073709551616", `invalid value "18446744073709551616" for flag -table-size: value out of range`},
		{"-1", `invalid value "-1" for flag -table-size: parse error`},
		{"-4294967295", `invalid value "-4294967295" for flag -table-size: parse error`},
		{"4096.5", `invalid value "4096.5" for flag -table-size: parse error`},
		{"", `invalid value "" for flag -table-size: parse error`},
	}
	for _, tt := range tests {
		for _, cmd := range [][]string{{"decode", c41}, {"encode", ":method:GET"}, {"deflate", "-"}} {
			t.Run(cmd[0]+"/"+tt.value, func(t *testing.T) {
				code, stdout, stderr := runCmdStdin(t, plainStory, cmd[0], "--table-size", tt.value, cmd[1])
				want := "metapack " + cmd[0] + ": " + tt.want + "\nRun 'metapack " + cmd[0] + " -h' for usage.\n"
				if code != 2 || stdout != "" || stderr != want {
					t.Errorf("exit code %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
				}
			})
		}
	}
}

// tableSizeStory is a story whose first case sets header_table_size to
// SIZE; the second keeps it and uses the entry the first added, and the
// third lowers the size to 4096, which its block acknowledges.
const tableSizeStory = `{"cases": [
 {"seqno": 0, "header_table_size": SIZE, "wire": "` + c41 + `",
  "headers": [{":method": "GET"}, {":scheme": "http"}, {":path": "/"}, {":authority": "www.example.com"}]},
 {"seqno": 1, "wire": "` + c4ref + `",
  "headers": [{":method": "GET"}, {":scheme": "http"}, {":path": "/"}, {":authority": "www.example.com"}]},
 {"seqno": 2, "header_table_size": 4096, "wire": "3fe11f828684be",
  "headers": [{":method": "GET"}, {":scheme": "http"}, {":path": "/"}, {":authority": "www.example.com"}],
  "dynamic_table": [{":authority": "www.example.com"}], "dynamic_table_size": 57}
]}`

// TestStoryTableSizes checks that every command that reads stories takes a
// header_table_size of any 32-bit value (57 or more, for the story's entry).
func TestStoryTableSizes(t *testing.T) {
	for _, size := range tableSizes {
		if size < 57 {
			continue
		}
		n := fmt.Sprint(size)
		t.Run(n, func(t *testing.T) {
			content := strings.Replace(tableSizeStory, "SIZE", n, 1)
			file := filepath.Join(writeFiles(t, map[string]string{"story.json": content}), "story.json")

			code, stdout, stderr := runCmd(t, "inflate", "--check", file)
			if code != 0 || stdout != "checked 1 stories, 3 cases: 0 mismatches, 0 errors\n" {
				t.Errorf("inflate --check: exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}

			code, deflated, stderr := runCmd(t, "deflate", file)
			if code != 0 || !strings.Contains(deflated, `"header_table_size": `+n+",") {
				t.Fatalf("deflate: exit code %d, stdout:\n%s\nstderr:\n%s", code, deflated, stderr)
			}
			code, stdout, stderr = runCmdStdin(t, deflated, "inflate", "--check", "-")
			if code != 0 || stdout != "checked 1 stories, 3 cases: 0 mismatches, 0 errors\n" {
				t.Errorf("inflate --check of deflate's output: exit code %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}

			code, stdout, stderr = runCmd(t, "ratio", file)
			if code != 0 {
				t.Errorf("ratio: exit code %d, stderr:\n%s", code, stderr)
			} else {
				checkRatioTable(t, stdout, 1)
			}

			code, stdout, stderr = runCmd(t, "bench", "--corpus", filepath.Dir(file), "--time", "1ms", "--json")
			if code != 0 {
				t.Errorf("bench: exit code %d, stderr:\n%s", code, stderr)
			} else {
				checkBenchJSON(t, stdout)
			}
		})
	}
}

// TestStoryTableSizeRange checks that a header_table_size outside 0 to
// 2^32-1 is bad input for every command that reads stories.
func TestStoryTableSizeRange(t *testing.T) {
	tests := []struct {
		size string
		want string // after "metapack: FILE: case 0"
	}{
		{"4294967296", ` (seqno 0): "header_table_size" 4294967296 is above 2^32-1`},
		{"9223372036854775807", ` (seqno 0): "header_table_size" 9223372036854775807 is above 2^32-1`},
		{"18446744073709551616", `: invalid case JSON: json: cannot unmarshal number 18446744073709551616 into Go struct field rawCase.header_table_size of type int`},
		{"-1", `: negative "header_table_size" -1`},
		{"4096.5", `: invalid case JSON: json: cannot unmarshal number 4096.5 into Go struct field rawCase.header_table_size of type int`},
		{`"4096"`, `: invalid case JSON: json: cannot unmarshal string into Go struct field rawCase.header_table_size of type int`},
	}
	for _, tt := range tests {
		content := strings.Replace(tableSizeStory, "SIZE", tt.size, 1)
		file := filepath.Join(writeFiles(t, map[string]string{"story.json": content}), "story.json")
		for _, args := range [][]string{
			{"inflate", "--check", file},
			{"deflate", file},
			{"ratio", file},
			{"bench", "--corpus", filepath.Dir(file), "--time", "1ms"},
		} {
			t.Run(args[0]+"/"+tt.size, func(t *testing.T) {
				code, stdout, stderr := runCmd(t, args...)
				want := "metapack: " + file + ": case 0" + tt.want + "\n"
				if args[0] == "bench" {
					want = "metapack: --corpus: " + file + ": case 0" + tt.want + "\n"
				}
				if code != 2 || stdout != "" || stderr != want {
					t.Errorf("exit code %d, stdout %q, stderr\n%q\nwant 2, nothing and\n%q", code, stdout, stderr, want)
				}
			})
		}
	}
}
