package qif

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    [][]Field
		wantErr string
	}{
		{"empty", "", nil, ""},
		{"one set, no blank line after", "a\tb", [][]Field{{{"a", "b"}}}, ""},
		{"two sets", "a\tb\nc\td\n\ne\tf\n\n", [][]Field{{{"a", "b"}, {"c", "d"}}, {{"e", "f"}}}, ""},
		{"empty value", ":authority\t\n", [][]Field{{{":authority", ""}}}, ""},
		{"empty name", "\tv\n", [][]Field{{{"", "v"}}}, ""},
		{"tab in value", "a\tb\tc\n", [][]Field{{{"a", "b\tc"}}}, ""},
		{"value keeps spaces", "a\t  b  \n", [][]Field{{{"a", "  b  "}}}, ""},
		{"carriage return is a byte of the value", "a\tb\r\n\r\n", nil, "line 2: no tab"},
		{"carriage return kept", "a\tb\r\n", [][]Field{{{"a", "b\r"}}}, ""},
		{"non-UTF-8 bytes kept", "a\t\xff\x00\n", [][]Field{{{"a", "\xff\x00"}}}, ""},
		{"comments anywhere", "# stream 4\na\tb\n# mid\nc\td\n\n# stream 8\ne\tf\n", [][]Field{{{"a", "b"}, {"c", "d"}}, {{"e", "f"}}}, ""},
		{"a comment does not end a set", "a\tb\n#\nc\td\n", [][]Field{{{"a", "b"}, {"c", "d"}}}, ""},
		{"blank lines collapse", "\n\n\na\tb\n\n\n\nc\td\n\n\n", [][]Field{{{"a", "b"}}, {{"c", "d"}}}, ""},
		{"only comments", "# x\n#\n", nil, ""},
		{"no tab", "a\tb\nnotab\n", nil, "line 2: no tab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse(%q) error %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestAppendRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		sets [][]Field
		want string
	}{
		{"none", nil, ""},
		{"one", [][]Field{{{"a", "b"}}}, "a\tb\n\n"},
		{"two, empty value, tab in value", [][]Field{{{"a", ""}, {"b", "x\ty"}}, {{"c", "d"}}}, "a\t\nb\tx\ty\n\nc\td\n\n"},
		{"bytes kept", [][]Field{{{"a", "\r\xff "}}}, "a\t\r\xff \n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Append(nil, tt.sets)
			if string(got) != tt.want {
				t.Fatalf("Append = %q, want %q", got, tt.want)
			}
			back, err := Parse(got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.sets, back); diff != "" {
				t.Errorf("Parse(Append(sets)) (-sets +got):\n%s", diff)
			}
		})
	}
}

func TestRawBytes(t *testing.T) {
	tests := []struct {
		sets [][]Field
		want int
	}{
		{nil, 0},
		{[][]Field{{{"ab", "c"}}, {{"", ""}, {"d", "efg"}}}, 7},
	}
	for _, tt := range tests {
		if got := RawBytes(tt.sets); got != tt.want {
			t.Errorf("RawBytes(%v) = %d, want %d", tt.sets, got, tt.want)
		}
	}
}
