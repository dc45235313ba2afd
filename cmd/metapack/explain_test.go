package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RFC 7541 Appendix C header blocks.
const (
	c21  = "400a637573746f6d2d6b65790d637573746f6d2d686561646572"
	c22  = "040c2f73616d706c652f70617468"
	c23  = "100870617373776f726406736563726574"
	c24  = "82"
	c31  = "828684410f7777772e6578616d706c652e636f6d"
	c32  = "828684be58086e6f2d6361636865"
	c33  = "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"
	c41  = "828684418cf1e3c2e5f23a6ba0ab90f4ff"
	c42  = "828684be5886a8eb10649cbf"
	c43  = "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"
	c51  = "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d"
	c52  = "4803333037c1c0bf"
	c53  = "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076657273696f6e3d31"
	size = "256"
)

// TestGolden compares decode and encode output with testdata/NAME.golden;
// -update rewrites the files.
func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"decode-c3", []string{"decode", c31, c32, c33}},
		{"decode-explain-c2", []string{"decode", "--explain", c21, c22, c23, c24}},
		{"decode-explain-c3", []string{"decode", "--explain", c31, c32, c33}},
		{"decode-explain-c4", []string{"decode", "--explain", c41, c42, c43}},
		{"decode-explain-c5", []string{"decode", "--explain", "--table-size", size, c51, c52, c53}},
		{"decode-explain-size-update", []string{"decode", "--explain", "3f00" + c24, "3fe11f" + c21}},
		{"encode-c4", []string{"encode", ":method:GET", ":scheme:http", ":path:/", ":authority:www.example.com"}},
		{"encode-explain-c4", []string{"encode", "--explain", ":method:GET", ":scheme:http", ":path:/", ":authority:www.example.com"}},
		{"encode-explain-grpc", []string{"encode", "--explain", ":status:200", "content-type:application/grpc", "grpc-status:0", "authorization: Bearer xyz", "x-custom:  v"}},
		{"encode-explain-small-table", []string{"encode", "--explain", "--table-size", "0", ":method:GET", "x-a:b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
			}
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if stdout != string(want) {
				t.Errorf("output differs from %s (run go test -update if the change is right):\n got:\n%s\nwant:\n%s", path, stdout, want)
			}
		})
	}
}

// TestEncodeDecodes checks that what encode prints decodes to its fields.
func TestEncodeDecodes(t *testing.T) {
	fields := []string{":method:POST", ":path:/pkg.Service/Method", "te:trailers", "grpc-timeout:100m", "x-bin:\x00\xff", "empty:"}
	code, hexOut, stderr := runCmd(t, append([]string{"encode"}, fields...)...)
	if code != 0 {
		t.Fatalf("encode: exit code %d, stderr:\n%s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "decode", strings.TrimSpace(hexOut))
	if code != 0 {
		t.Fatalf("decode: exit code %d, stderr:\n%s", code, stderr)
	}
	want := ":method: POST\n:path: /pkg.Service/Method\nte: trailers\ngrpc-timeout: 100m\nx-bin: \"\\x00\\xff\"\nempty: \"\"\n"
	if stdout != want {
		t.Errorf("decoded\n%s\nwant\n%s", stdout, want)
	}
}

func TestDecodeEncodeErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // the whole of stderr
	}{
		{"bad hex", []string{"decode", "82zz"}, 2, "metapack: block 1: bad hex: invalid character 'z'\n"},
		{"odd hex", []string{"decode", c31, "828"}, 2, "metapack: block 2: bad hex: odd number of digits (3)\n"},
		{"bad index", []string{"decode", "8286be"}, 1, "metapack: block 1: offset 2: decoding error: invalid index 62 (the tables hold 61 entries)\n"},
		{"truncated", []string{"decode", "410f7777"}, 1, "metapack: block 1: offset 0: decoding error: header block ends inside a field\n"},
		{"explain truncated", []string{"decode", "--explain", "410f7777"}, 1, "metapack: block 1: offset 0: decoding error: header block ends inside a field\n"},
		{"bad huffman", []string{"decode", "--explain", "4181ff"}, 1, "metapack: block 1: offset 0: decoding error: invalid Huffman-encoded data: padding is longer than 7 bits or not all ones\n"},
		{"size update too large", []string{"decode", "3fe21f"}, 1, "metapack: block 1: offset 0: decoding error: dynamic table size update above the advertised maximum\n"},
		{"no field", []string{"encode", "novalue"}, 2, "metapack: field \"novalue\": want NAME:VALUE\n"},
		{"pseudo without value", []string{"encode", ":path"}, 2, "metapack: field \":path\": want NAME:VALUE\n"},
		{"empty name", []string{"encode", ":v"}, 2, "metapack: field \":v\": want NAME:VALUE\n"},
		{"empty name 2", []string{"encode", "::v"}, 2, "metapack: field \"::v\": empty name\n"},
		{"uppercase", []string{"encode", "Host:x"}, 2, "metapack: field \"Host:x\": name \"Host\" has uppercase letters (HTTP/2 names are lowercase)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || stderr != tt.want {
				t.Errorf("exit code %d, stderr %q; want %d, %q", code, stderr, tt.code, tt.want)
			}
		})
	}
	for _, args := range [][]string{{"decode"}, {"encode"}, {"decode", "--table-size", "x", "82"}, {"encode", "--table-size", "4294967296", "a:b"}} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "metapack "+args[0]+": ") || !strings.HasSuffix(stderr, "Run 'metapack "+args[0]+" -h' for usage.\n") {
			t.Errorf("%q: exit code %d, stdout %q, stderr %q; want 2 and a usage error", args, code, stdout, stderr)
		}
	}
}
