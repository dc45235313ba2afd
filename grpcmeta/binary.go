package grpcmeta

import (
	"bytes"
	"encoding/base64"
	"errors"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// ErrNilBatch is what the functions that append to a batch return for a
// nil one.
var ErrNilBatch = errors.New("grpcmeta: nil batch")

// IsBinaryName reports whether name is a binary metadata key, one that
// ends in "-bin", whose values travel base64-encoded.
func IsBinaryName(name string) bool { return hasBinSuffix(name) }

// IsBinaryField reports whether f's name ends in "-bin", without
// allocating: a field whose value AppendBinaryValue decodes.
func IsBinaryField(f mdelem.Field) bool { return nameHasBinSuffix(f.Name) }

func hasBinSuffix[T ~string | ~[]byte](name T) bool {
	n := len(name)
	return n >= 4 && name[n-4] == '-' && name[n-3] == 'b' && name[n-2] == 'i' && name[n-1] == 'n'
}

// AppendBase64 appends src base64-encoded (RFC 4648 §4, the standard
// alphabet) without padding, as the gRPC protocol asks senders to, and
// returns the extended buffer.
func AppendBase64(dst, src []byte) []byte {
	return base64.RawStdEncoding.AppendEncode(dst, src)
}

// AppendBase64Decode appends the bytes that the base64 value src encodes
// and returns the extended buffer. It takes padded and unpadded values,
// as the gRPC protocol requires of receivers, the way grpc-go does: a
// value whose length is a multiple of 4 is read as padded (or needing no
// padding), any other as unpadded. Bits left over after the last byte
// are ignored, and so are CR and LF (encoding/base64's rules; HTTP/2
// allows neither in a field value). On an error nothing is appended, and
// the error is a *ValueError wrapping ErrBadBase64 with the offset of the
// offending byte.
func AppendBase64Decode(dst, src []byte) ([]byte, error) {
	n := len(dst)
	enc := base64.RawStdEncoding
	if len(src)%4 == 0 {
		enc = base64.StdEncoding
	}
	out, err := enc.AppendDecode(dst, src)
	if err != nil {
		var ce base64.CorruptInputError
		off := -1
		if errors.As(err, &ce) {
			off = int(ce)
		}
		return dst[:n], &ValueError{Offset: off, Reason: base64Reason(src, off), Err: ErrBadBase64}
	}
	return out, nil
}

// BinaryValue returns the bytes that binary field f's value encodes,
// decoded as AppendBinaryValue decodes them into memory that batch b owns
// (mdelem.Batch.Alloc): they stay valid until b is Reset, and decoding
// allocates nothing once b's arena has grown to the connection's needs.
// Use it for a field of b itself, or of a batch that lives as long.
func BinaryValue(b *mdelem.Batch, f mdelem.Field) ([]byte, error) {
	if b == nil {
		return nil, ErrNilBatch
	}
	n := base64.StdEncoding.DecodedLen(f.Value.Len())
	if f.Value.Len()%4 != 0 {
		n = base64.RawStdEncoding.DecodedLen(f.Value.Len())
	}
	return AppendBinaryValue(b.Alloc(n)[:0], f)
}

// AppendBinaryValue appends the bytes that binary field f's value
// encodes, as AppendBase64Decode does, and returns the extended buffer.
// f's name must end in "-bin" (ErrNotBinary otherwise); the error names
// f's name. A value of several values joined with ',' (which only an
// intermediary that merges fields makes) is reported at the first ',':
// split it there and decode each part with AppendBase64Decode.
//
// It reads the value where the batch holds it and writes only to dst,
// so reusing dst (dst[:0]) from field to field and request to request
// decodes without allocating; BinaryValue decodes into the batch's
// memory instead. The value's own bytes cannot take the decoded value in
// place: a value may be an atom, an immutable string shared by every
// batch, or bytes the decoder's dynamic table shares.
func AppendBinaryValue(dst []byte, f mdelem.Field) ([]byte, error) {
	if !nameHasBinSuffix(f.Name) {
		return dst, &ValueError{Name: f.Name.String(), Offset: -1, Err: ErrNotBinary}
	}
	out, err := AppendBase64Decode(dst, f.Value.UnsafeBytes())
	if err != nil {
		if ve, ok := err.(*ValueError); ok {
			ve.Name = f.Name.String()
		}
	}
	return out, err
}

func nameHasBinSuffix(s mdelem.Str) bool {
	if a := s.Atom(); a != nil {
		return hasBinSuffix(a.String())
	}
	return hasBinSuffix(s.UnsafeBytes())
}

// AppendBinary appends the binary field name: value to b, value encoded
// as AppendBase64 does, and returns scratch, the buffer it encoded into,
// for the next call to reuse: b copies the encoded bytes into its arena,
// so with a reused scratch and batch nothing is allocated. name must end
// in "-bin" (ErrNotBinary otherwise, and nothing is appended); a
// well-known name (grpc-trace-bin, grpc-status-details-bin, ...) is
// appended as its atom. ValidateMetadata checks the name's characters.
func AppendBinary(b *mdelem.Batch, scratch []byte, name string, value []byte) ([]byte, error) {
	if !IsBinaryName(name) {
		return scratch, &ValueError{Name: name, Offset: -1, Err: ErrNotBinary}
	}
	if b == nil {
		return scratch, ErrNilBatch
	}
	scratch = AppendBase64(scratch[:0], value)
	if a := staticdata.Lookup(name); a != nil {
		b.Append(mdelem.From(a, mdelem.Borrowed(scratch)))
	} else {
		b.Append(mdelem.From(mdelem.BorrowString(name), mdelem.Borrowed(scratch)))
	}
	return scratch, nil
}

// base64Reason says why encoding/base64 stopped at byte off of v.
func base64Reason(v []byte, off int) string {
	if off < 0 || off >= len(v) {
		return "the value ends inside a group of four characters"
	}
	if base64Char(v[off]) && bytes.IndexByte(v[:off], '=') >= 0 {
		return "characters after the padding"
	}
	return byteReason(v[off])
}

// byteReason says why base64 decoding stopped at c.
func byteReason(c byte) string {
	switch {
	case c == '=':
		return "padding where none may be"
	case c == ',':
		return "',' joins several values: split the value at ',' and decode each part"
	case base64Char(c):
		return "a final group of one character, or padding too short or too long"
	}
	return "not in the base64 alphabet (A-Z a-z 0-9 + /)"
}

func base64Char(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// checkBase64 reports whether AppendBase64Decode would accept v, for a v
// without CR or LF (which encoding/base64 skips), without decoding it:
// it returns -1, or the offset of the first offending byte and the
// reason. TestCheckBase64 holds it to encoding/base64 on every string of
// up to 6 bytes over an alphabet that covers each case.
func checkBase64[T ~string | ~[]byte](v T) (int, string) {
	n := len(v)
	end := n
	if n%4 == 0 && n > 0 && v[n-1] == '=' {
		// Read as padded: one '=' after three characters, two after two.
		end = n - 1
		if v[n-2] == '=' {
			end = n - 2
		}
	}
	for i := 0; i < end; i++ {
		if !base64Char(v[i]) {
			return i, byteReason(v[i])
		}
	}
	if n%4 == 1 {
		return n - 1, "a final group of one character"
	}
	return -1, ""
}
