package fuzz

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/workload"
	xhpack "golang.org/x/net/http2/hpack"
)

var update = flag.Bool("update", false, "rewrite the committed seed corpora under testdata/fuzz")

// rfcWires returns the header blocks of the RFC 7541 Appendix C examples,
// one story's blocks joined with the block separator.
func rfcWires() [][]byte {
	f, err := os.Open("../testdata/rfc7541-appendix-c.txt")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var out [][]byte
	var cur []byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "story "):
			if cur != nil {
				out = append(out, cur)
			}
			cur = []byte{}
		case strings.HasPrefix(line, "wire "):
			w, err := hex.DecodeString(line[5:])
			if err != nil {
				panic(err)
			}
			if len(cur) > 0 {
				cur = append(cur, 0xff, 0x00, 0xff)
			}
			cur = append(cur, w...)
		}
	}
	return append(out, cur)
}

// adversarialBlocks are the malformed blocks of the decoder's tests.
var adversarialBlocks = []string{
	"80", "be", "7f0700", "ffffffff0f", "ff8080808010", "ff8080808080808080808000",
	"007f818080808080 20", "0001618 1ff", "00016181 00", "00016184ffffffff",
	"3fe21f", "8220", "202020", "40", "8240016105 61", "82ff", "203fe11f82",
	"000000000000000000", "3f4582", "0080",
}

// generatedBlocks encodes a few synthetic gRPC header lists with x/net.
func generatedBlocks() [][]byte {
	var buf bytes.Buffer
	enc := xhpack.NewEncoder(&buf)
	var out [][]byte
	var story []byte
	for i, hs := range workload.GRPC(30, 9) {
		buf.Reset()
		for _, h := range hs {
			enc.WriteField(xhpack.HeaderField{Name: h.Name, Value: h.Value, Sensitive: h.Name == "authorization"})
		}
		if len(story) > 0 {
			story = append(story, 0xff, 0x00, 0xff)
		}
		story = append(story, buf.Bytes()...)
		if i%3 == 2 {
			out = append(out, story)
			story = nil
		}
	}
	return out
}

func decodeSeeds() [][]byte {
	var out [][]byte
	out = append(out, rfcWires()...)
	for _, h := range adversarialBlocks {
		b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		if err != nil {
			panic(fmt.Sprintf("%q: %v", h, err))
		}
		out = append(out, b)
	}
	return append(out, generatedBlocks()...)
}

// headerSeeds are header lists in the fuzzers' text form: "name: value"
// lines.
func headerSeeds() []string {
	out := []string{":method: GET\n:path: /\n:authority: example.com\n", "custom-key: custom-value\n",
		"authorization: Bearer t\ncookie: a=b\nsecret: s\n\nauthorization: Bearer t\ncookie: a=b\n"}
	lists := workload.GRPC(12, 3)
	for i := 0; i+3 <= len(lists); i += 3 {
		var b strings.Builder // one call: request, response, trailers
		for _, hs := range lists[i : i+3] {
			for _, h := range hs {
				b.WriteString(h.Name + ": " + h.Value + "\n")
			}
			b.WriteString("\n")
		}
		out = append(out, b.String())
	}
	return out
}

// seedCorpora lists each target's committed seeds as argument tuples.
func seedCorpora() map[string][][]any {
	m := map[string][][]any{}
	for i, s := range decodeSeeds() {
		m["FuzzDecode"] = append(m["FuzzDecode"], []any{s, uint64(i), byte(i)})
		m["FuzzDecodeFunc"] = append(m["FuzzDecodeFunc"], []any{s, uint64(i * 5), byte(i + 1)})
		m["FuzzStringLimitSync"] = append(m["FuzzStringLimitSync"], []any{s, uint64(i), byte(i * 3)})
	}
	for i, h := range headerSeeds() {
		m["FuzzXnetToOurs"] = append(m["FuzzXnetToOurs"], []any{h, byte(i)})
		m["FuzzRoundTrip"] = append(m["FuzzRoundTrip"], []any{h, byte(i * 37)})
	}
	for _, s := range []string{"", "www.example.com", "no-cache", "\x00\xff\x80", "Mon, 21 Oct 2013 20:13:21 GMT"} {
		m["FuzzHuffman"] = append(m["FuzzHuffman"], []any{[]byte(s)})
	}
	for _, w := range rfcWires() {
		m["FuzzHuffman"] = append(m["FuzzHuffman"], []any{w})
	}
	return m
}

// encodeSeed writes one corpus file in the format of go test -fuzz.
func encodeSeed(args []any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case uint64:
			fmt.Fprintf(&b, "uint64(%d)\n", v)
		case uint16:
			fmt.Fprintf(&b, "uint16(%d)\n", v)
		case byte:
			fmt.Fprintf(&b, "byte(%q)\n", v)
		default:
			panic(fmt.Sprintf("unsupported seed type %T", a))
		}
	}
	return b.Bytes()
}

// TestSeedCorpus checks that every target's seed corpus is committed and
// current; with -update it rewrites them.
func TestSeedCorpus(t *testing.T) {
	for target, seeds := range seedCorpora() {
		dir := filepath.Join("testdata", "fuzz", target)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for i, args := range seeds {
			path := filepath.Join(dir, fmt.Sprintf("seed-%03d", i))
			want := encodeSeed(args)
			if *update {
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is missing or stale: run go test ./fuzz -run TestSeedCorpus -update", path)
			}
		}
	}
}
