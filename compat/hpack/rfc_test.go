package hpack_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	compat "github.com/metapack/metapack/compat/hpack"
	"github.com/metapack/metapack/internal/story"
)

// TestDecodeRFC7541AppendixC decodes RFC 7541's C.2 to C.6 examples with
// the drop-in, each block whole and written a byte at a time, and checks
// the fields and, after each block, the dynamic table: indexed fields
// leave the table as it is, so each entry is read back as a block of its
// own, and the index past the last entry must be invalid. This is what
// x/net's TestDecodeC3 to C6 check through x/net's internals, which the
// port cannot reach.
func TestDecodeRFC7541AppendixC(t *testing.T) {
	stories, err := story.ReadAppendixC("../../testdata/rfc7541-appendix-c.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stories {
		for _, split := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/split=%v", s.Name, split), func(t *testing.T) {
				var got [][2]string
				d := compat.NewDecoder(s.TableSize, func(f compat.HeaderField) {
					got = append(got, [2]string{f.Name, f.Value})
				})
				// RFC 7541's examples take a size below 4096 as the
				// table's size from the start; above, the drop-in
				// waits for the peer's update (see the package doc).
				d.SetMaxDynamicTableSize(s.TableSize)
				for i, c := range s.Cases {
					got = nil
					write := [][]byte{c.Wire}
					if split {
						write = nil
						for j := range c.Wire {
							write = append(write, c.Wire[j:j+1])
						}
					}
					for _, p := range write {
						if _, err := d.Write(p); err != nil {
							t.Fatalf("case %d: Write: %v", i, err)
						}
					}
					if err := d.Close(); err != nil {
						t.Fatalf("case %d: Close: %v", i, err)
					}
					if diff := cmp.Diff(c.Headers, got); diff != "" {
						t.Fatalf("case %d fields (-want +got):\n%s", i, diff)
					}
					for j, want := range c.Table {
						fs, err := d.DecodeFull([]byte{0x80 | byte(62+j)})
						if err != nil || len(fs) != 1 || fs[0].Name != want[0] || fs[0].Value != want[1] {
							t.Fatalf("case %d: table entry %d = %v, %v; want %q", i, j, fs, err, want)
						}
					}
					var de compat.DecodingError
					past := 62 + len(c.Table)
					if _, err := d.DecodeFull([]byte{0x80 | byte(past)}); !errors.As(err, &de) || de.Err != compat.InvalidIndexError(past) {
						t.Fatalf("case %d: index %d past the table: %v", i, past, err)
					}
					// The invalid index failed the Decoder, as HTTP/2
					// requires: replay the blocks so far on a new one.
					d = replay(t, s, i+1, &got)
				}
			})
		}
	}
}

// replay returns a new Decoder that has decoded the first n blocks of s,
// emitting into *got.
func replay(t *testing.T, s story.AppendixStory, n int, got *[][2]string) *compat.Decoder {
	t.Helper()
	d := compat.NewDecoder(s.TableSize, func(f compat.HeaderField) { *got = append(*got, [2]string{f.Name, f.Value}) })
	d.SetMaxDynamicTableSize(s.TableSize)
	for _, c := range s.Cases[:n] {
		if _, err := d.DecodeFull(c.Wire); err != nil {
			t.Fatal(err)
		}
	}
	return d
}
