package qpack

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/metapack/metapack/mdelem"
	mqpack "github.com/metapack/metapack/qpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// decodeAll calls next until it returns an error, and returns the fields
// before it and the error (nil for io.EOF).
func decodeAll(next DecodeFunc) ([]HeaderField, error) {
	var out []HeaderField
	for {
		f, err := next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, f)
	}
}

// TestDecodeErrors checks quic-go/qpack v0.6.0's errors, with its
// messages, and that the fields before an error come first.
func TestDecodeErrors(t *testing.T) {
	status200 := []byte{0xd9} // Indexed Field Line, static 25 (:status 200)
	pathSlash := []byte{0xc1} // static 1 (:path /)
	tests := []struct {
		name   string
		in     []byte
		before int // fields returned before the error
		msg    string
		is     error
	}{
		{"empty input", nil, 0, "unexpected EOF", io.ErrUnexpectedEOF},
		{"prefix cut after the Required Insert Count", []byte{0}, 0, "unexpected EOF", io.ErrUnexpectedEOF},
		{"non-zero Required Insert Count", []byte{1, 0}, 0, "expected Required Insert Count to be zero", nil},
		{"non-zero Delta Base", []byte{0, 1}, 0, "expected Base to be zero", nil},
		{"post-base indexed field line", append([]byte{0, 0}, append(status200, 0x10)...), 1, "unexpected type byte: 0x10", nil},
		{"post-base name reference", append([]byte{0, 0}, 0x01, 0x00), 0, "unexpected type byte: 0x1", nil},
		{"dynamic indexed field line", append([]byte{0, 0}, append(pathSlash, 0x80)...), 1, "no dynamic table", errNoDynamicTable},
		{"dynamic name reference", []byte{0, 0, 0x40, 0x00}, 0, "no dynamic table", errNoDynamicTable},
		{"static index past the table", []byte{0, 0, 0xff, 0x24}, 0, "invalid indexed representation index 99", nil},
		{"static name reference past the table", []byte{0, 0, 0x5f, 0x54, 0x00}, 0, "invalid indexed representation index 99", nil},
		{"literal value cut short", []byte{0, 0, 0x51, 0x05, 'a'}, 0, "unexpected EOF", io.ErrUnexpectedEOF},
		{"literal name cut short", []byte{0, 0, 0x23, 'a'}, 0, "unexpected EOF", io.ErrUnexpectedEOF},
		{"integer overflow", []byte{0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 0, "varint integer overflow", nil},
		{"invalid Huffman value", []byte{0, 0, 0x51, 0x81, 0x00}, 0, xhpack.ErrInvalidHuffman.Error(), xhpack.ErrInvalidHuffman},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeAll(NewDecoder().Decode(tt.in))
			if err == nil {
				t.Fatalf("decoded %q, want error %q", got, tt.msg)
			}
			if err.Error() != tt.msg {
				t.Errorf("error %q, want %q", err, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
			if len(got) != tt.before {
				t.Errorf("%d fields before the error, want %d", len(got), tt.before)
			}
		})
	}
}

// TestRoundTrip encodes field lists with the Encoder and decodes them
// back, through sections that reuse one Encoder.
func TestRoundTrip(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 300)
	binary := string([]byte{0, 1, 2, 0xff, 0xfe, '\n'})
	tests := []struct {
		name   string
		fields []HeaderField
	}{
		{"static entries", []HeaderField{{":method", "GET"}, {":path", "/"}, {":status", "200"}, {"accept", "*/*"}}},
		{"static names with other values", []HeaderField{{":status", "666"}, {"server", "lorem ipsum"}, {":method", ""}}},
		{"literal names", []HeaderField{{"foo", "bar"}, {"x-request-id", "0f3b6c1e-88aa-4d2e"}, {"", ""}}},
		{"long and binary values", []HeaderField{{"cookie", long}, {"x-bin", binary}, {"x-upper", "MiXeD CaSe"}}},
		{"repeated fields", []HeaderField{{"set-cookie", "a=1"}, {"set-cookie", "a=1"}, {"set-cookie", "b=2"}}},
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	dec := NewDecoder()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf.Reset()
			for _, f := range tt.fields {
				if err := enc.WriteField(f); err != nil {
					t.Fatal(err)
				}
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(buf.Bytes(), []byte{0, 0}) {
				t.Fatalf("section % x does not start with a zero prefix", buf.Bytes())
			}
			got, err := decodeAll(dec.Decode(buf.Bytes()))
			if err != nil {
				t.Fatalf("decoding % x: %v", buf.Bytes(), err)
			}
			if !slices.Equal(got, tt.fields) {
				t.Errorf("decoded %q, want %q", got, tt.fields)
			}
		})
	}
}

// TestWriteFieldWritesOnce checks that each field is one Write, the first
// with the section's prefix, and that a failing writer's error comes back.
func TestWriteFieldWritesOnce(t *testing.T) {
	w := &countingWriter{}
	enc := NewEncoder(w)
	for _, f := range []HeaderField{{":method", "GET"}, {"foo", "bar"}} {
		if err := enc.WriteField(f); err != nil {
			t.Fatal(err)
		}
	}
	enc.Close()
	if len(w.writes) != 2 || !bytes.Equal(w.writes[0], []byte{0, 0, 0xd1}) {
		t.Fatalf("writes % x, want [00 00 d1] then the literal", w.writes)
	}
	w.fail = true
	if err := enc.WriteField(HeaderField{"a", "b"}); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("WriteField to a failing writer: %v, want io.ErrClosedPipe", err)
	}
}

type countingWriter struct {
	writes [][]byte
	fail   bool
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.fail {
		return 0, io.ErrClosedPipe
	}
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

// TestDecodeFuncAfterEnd checks that a DecodeFunc keeps returning its end
// once reached, and holds nothing of the section after its first call.
func TestDecodeFuncAfterEnd(t *testing.T) {
	in := []byte{0, 0, 0xd1, 0xd9}
	next := NewDecoder().Decode(in)
	if _, err := next(); err != nil {
		t.Fatal(err)
	}
	copy(in, []byte{0xff, 0xff, 0xff, 0xff}) // the section may change now
	if f, err := next(); err != nil || f != (HeaderField{":status", "200"}) {
		t.Fatalf("second field %q, %v", f, err)
	}
	for range 3 {
		if _, err := next(); err != io.EOF {
			t.Fatalf("after the end: %v, want io.EOF", err)
		}
	}
}

// TestConcurrentDecode decodes and encodes from many goroutines with one
// Decoder, as quic-go's http3 does for a connection's streams (run it
// under -race).
func TestConcurrentDecode(t *testing.T) {
	fields := []HeaderField{{":method", "POST"}, {":path", "/upload"}, {"x-trace", "abc123"}, {"content-type", "text/plain"}}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, f := range fields {
		enc.WriteField(f)
	}
	enc.Close()
	section := buf.Bytes()
	dec := NewDecoder()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			var b bytes.Buffer
			e := NewEncoder(&b)
			for range 200 {
				got, err := decodeAll(dec.Decode(section))
				if err != nil || !slices.Equal(got, fields) {
					errs <- errors.New("concurrent decode gave other fields")
					return
				}
				b.Reset()
				for _, f := range got {
					e.WriteField(f)
				}
				e.Close()
				if !bytes.Equal(b.Bytes(), section) {
					errs <- errors.New("concurrent encode gave other bytes")
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestSameBytesAsQpack checks that the Encoder writes the section
// metapack's qpack Encoder writes with no table: static entries and
// static names are found from plain strings.
func TestSameBytesAsQpack(t *testing.T) {
	fields := []HeaderField{{":method", "GET"}, {":path", "/a/b"}, {"content-type", "application/json"}, {"x-made-up", "v"}, {"cookie", "a=b"}}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	b := mdelem.NewBatch(len(fields), 0)
	for _, f := range fields {
		if err := enc.WriteField(f); err != nil {
			t.Fatal(err)
		}
		b.Append(mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value)))
	}
	enc.Close()
	want, _ := mqpack.NewEncoder().AppendSection(nil, nil, 0, b)
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("drop-in % x, qpack % x", buf.Bytes(), want)
	}
}
