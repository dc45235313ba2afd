package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ratioRowRE matches a row of the ratio table.
var ratioRowRE = regexp.MustCompile(`^(\S+) +(\d+) +(\d+) +(\d\.\d{4}) +(\d+) +(\d\.\d{4})$`)

// checkRatioTable checks the table's shape: a title line, one row per
// story and a total that sums them. It returns the rows.
func checkRatioTable(t *testing.T, out string, stories int) [][]string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != stories+2 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), stories+2, out)
	}
	if f := strings.Fields(lines[0]); strings.Join(f, " ") != "story header bytes metapack ratio x/net ratio" {
		t.Errorf("title line %q", lines[0])
	}
	var rows [][]string
	var sums [3]int
	for _, l := range lines[1:] {
		m := ratioRowRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("row %q is malformed", l)
		}
		rows = append(rows, m[1:])
		if m[1] == "total" {
			break
		}
		for i, col := range []int{2, 3, 5} {
			n, _ := strconv.Atoi(m[col])
			sums[i] += n
		}
	}
	total := rows[len(rows)-1]
	if total[0] != "total" {
		t.Fatalf("last row %q is not the total", total)
	}
	for i, col := range []int{1, 2, 4} {
		if n, _ := strconv.Atoi(total[col]); n != sums[i] {
			t.Errorf("total column %d is %d, the rows sum to %d", col, n, sums[i])
		}
	}
	return rows
}

func TestRatioRawData(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "hpack-test-case", "raw-data")
	code, stdout, stderr := runCmd(t, "ratio", dir)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	rows := checkRatioTable(t, stdout, 32)
	if rows[0][0] != filepath.Join(dir, "story_00.json") {
		t.Errorf("first story %q", rows[0][0])
	}
	// The README gives 0.3108 for x/net-like encoders (python-hpack); both
	// encoders should compress the corpus to well under half.
	total := rows[len(rows)-1]
	for _, r := range []string{total[3], total[5]} {
		if v, _ := strconv.ParseFloat(r, 64); v < 0.2 || v > 0.4 {
			t.Errorf("total ratio %s is implausible", r)
		}
	}
}

func TestRatioSmall(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.json": rfcC3,
		"b.json": `{"cases": [{"seqno": 0, "header_table_size": 256, "headers": [{"x-a": "1"}]}, {"seqno": 1, "headers": [{"x-a": "1"}]}]}`,
	})
	code, stdout, stderr := runCmd(t, "ratio", filepath.Join(dir, "b.json"), dir)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	rows := checkRatioTable(t, stdout, 3)
	// Operands keep their order; a directory's files are sorted.
	if rows[1][0] != filepath.Join(dir, "a.json") || rows[2][0] != filepath.Join(dir, "b.json") {
		t.Errorf("stories %q, %q", rows[1][0], rows[2][0])
	}
}

func TestRatioErrors(t *testing.T) {
	bad := writeFiles(t, map[string]string{"bad.json": `{"cases": [`})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"ratio"}, "metapack ratio: no FILE_OR_DIR given"},
		{[]string{"ratio", "--frob", "x"}, "metapack ratio: flag provided but not defined: -frob"},
		{[]string{"ratio", filepath.Join(bad, "missing.json")}, "metapack: " + filepath.Join(bad, "missing.json") + ": no such file or directory"},
		{[]string{"ratio", bad}, "metapack: " + filepath.Join(bad, "bad.json")},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("%q: exit code %d, stdout %q, stderr %q; want 2, nothing, %q...", tt.args, code, stdout, stderr, tt.want)
		}
	}
}
