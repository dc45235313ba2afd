package quicgo

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	compat "github.com/metapack/metapack/compat/qpack"
	"github.com/metapack/metapack/interop/quicgo/quicqpack"
)

// compatDecode decodes section with the drop-in, returning the fields
// before any error.
func compatDecode(section []byte) ([]quicqpack.Field, error) {
	next := compat.NewDecoder().Decode(section)
	var out []quicqpack.Field
	for {
		f, err := next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, quicqpack.Field(f))
	}
}

// compatEncode encodes fields as one section with the drop-in.
func compatEncode(t *testing.T, enc *compat.Encoder, buf *bytes.Buffer, fields []quicqpack.Field) []byte {
	buf.Reset()
	for _, f := range fields {
		if err := enc.WriteField(compat.HeaderField(f)); err != nil {
			t.Fatal(err)
		}
	}
	enc.Close()
	return bytes.Clone(buf.Bytes())
}

// TestDropInInterop checks compat/qpack against quic-go/qpack both ways:
// each decodes the other's sections to the header list encoded.
func TestDropInInterop(t *testing.T) {
	inputs(t, func(t *testing.T, lists [][]quicqpack.Field, _ [][]bool) {
		qenc, qdec := quicqpack.NewEncoder(), quicqpack.NewDecoder()
		var buf bytes.Buffer
		enc := compat.NewEncoder(&buf)
		for i, list := range lists {
			theirs, err := qenc.Encode(list)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) == 0 {
				// quic-go/qpack writes nothing for an empty list, not even
				// a prefix, and both decoders refuse that as cut short.
				if _, err := compatDecode(theirs); err != io.ErrUnexpectedEOF {
					t.Fatalf("list %d: drop-in decoding an empty section: %v, want io.ErrUnexpectedEOF", i, err)
				}
				continue
			}
			if got, err := compatDecode(theirs); err != nil || diffFields(got, list) != "" {
				t.Fatalf("list %d: drop-in decoding quic-go's section: %v %s", i, err, diffFields(got, list))
			}
			ours := compatEncode(t, enc, &buf, list)
			if got, err := qdec.AppendFields(nil, ours); err != nil || diffFields(got, list) != "" {
				t.Fatalf("list %d: quic-go decoding the drop-in's section: %v %s", i, err, diffFields(got, list))
			}
		}
	})
}

// TestDropInErrors decodes damaged sections with both: the fields before
// the error and the error's message must be the same, except for the one
// prefix and the integers the drop-in's package doc lists (a Base below
// zero; integers over 62 bits, an error in both with other messages).
func TestDropInErrors(t *testing.T) {
	lists, _ := randomLists(400, randomSeed)
	qenc, qdec := quicqpack.NewEncoder(), quicqpack.NewDecoder()
	r := rand.New(rand.NewPCG(7, 9204))
	var compared, failed, skipped, overflows int
	for i, list := range lists {
		sec, err := qenc.Encode(list)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			p := damage(r, bytes.Clone(sec))
			if len(p) >= 2 && p[0] == 0 && p[1] == 0x80 {
				skipped++
				continue
			}
			want, wantErr := qdec.AppendFields(nil, p)
			got, gotErr := compatDecode(p)
			compared++
			if wantErr != nil {
				failed++
			}
			if errString(gotErr) == "varint integer overflow" && wantErr != nil && errString(wantErr) != errString(gotErr) {
				// Above 2^62-1 (RFC 9204 §4.1.1) the drop-in stops reading
				// the integer; quic-go/qpack reads on to 2^63 and then
				// fails on the value: both refuse the section.
				overflows++
				wantErr = gotErr
			}
			if d := diffFields(got, want); d != "" || errString(gotErr) != errString(wantErr) {
				t.Fatalf("list %d, section %s:\ndrop-in %v (%s)\nquic-go %v", i, hexHead(p), gotErr, d, wantErr)
			}
		}
	}
	t.Logf("%d damaged sections decoded alike, %d of them errors (%d integers over 62 bits); %d with a Base below zero skipped", compared, failed, overflows, skipped)
	if failed == 0 || failed == compared {
		t.Fatalf("%d of %d damaged sections failed: the damage does not exercise both outcomes", failed, compared)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// damage changes p at random: a byte flipped, set or dropped, the section
// cut short, or random bytes appended.
func damage(r *rand.Rand, p []byte) []byte {
	if len(p) == 0 {
		return p
	}
	switch i := r.IntN(len(p)); r.IntN(5) {
	case 0:
		p[i] ^= byte(1 << r.IntN(8))
	case 1:
		p[i] = byte(r.IntN(256))
	case 2:
		p = append(p[:i], p[i+1:]...)
	case 3:
		p = p[:i]
	default:
		for range r.IntN(4) + 1 {
			p = append(p, byte(r.IntN(256)))
		}
	}
	return p
}
