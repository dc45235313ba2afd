package grpcmeta

import (
	"bytes"
	"encoding/base64"
	"errors"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// IsBinary reports whether name is a binary metadata key, one that ends
// in "-bin": for a field f, IsBinary(f.Name.UnsafeBytes()).
func IsBinary[T ~string | ~[]byte](name T) bool {
	n := len(name)
	return n >= 4 && name[n-4] == '-' && name[n-3] == 'b' && name[n-2] == 'i' && name[n-1] == 'n'
}

// appendBase64Decode is DecodeBinary on a bare value.
func appendBase64Decode(dst, src []byte) ([]byte, error) {
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
		return dst[:n], &FieldError{Index: -1, Offset: off, Reason: base64Reason(src, off), Err: ErrValue}
	}
	return out, nil
}

// DecodeBinary appends the bytes that binary field f's value encodes
// and returns the extended buffer. Like grpc-go, it reads a value whose
// length is a multiple of 4 as padded (or needing no padding), any other
// as unpadded; leftover bits, CR and LF are ignored (encoding/base64's
// rules). f's name must end in "-bin" (ErrName otherwise). A value that
// is not base64 is ErrValue, with the offending byte's offset, and
// nothing is appended; values joined with ',' (by an intermediary that
// merges fields) are reported at the first ',': split there and decode
// each part.
//
// It writes only to dst, so reusing dst[:0] decodes without allocating.
// To decode into memory a batch b owns, pass b.Alloc(f.Value.Len())[:0]:
// a value never decodes to more bytes than it has. The value's own bytes
// cannot be decoded in place: they may be an atom or shared with the
// decoder's dynamic table.
func DecodeBinary(dst []byte, f mdelem.Field) ([]byte, error) {
	if !nameHasBinSuffix(f.Name) {
		return dst, &FieldError{Index: -1, Name: f.Name.String(), Offset: -1, Reason: "does not end in -bin", Err: ErrName}
	}
	out, err := appendBase64Decode(dst, f.Value.UnsafeBytes())
	if err != nil {
		err.(*FieldError).Name = f.Name.String()
	}
	return out, err
}

func nameHasBinSuffix(s mdelem.Str) bool {
	if a := s.Atom(); a != nil {
		return IsBinary(a.String())
	}
	return IsBinary(s.UnsafeBytes())
}

// AppendBinary appends the binary field name: value to b, value
// base64-encoded (standard alphabet) without padding, as the protocol
// asks senders to, and returns scratch, the buffer it encoded into, for
// the next call to reuse; with a reused scratch and batch nothing is
// allocated. name must end in "-bin" (ErrName otherwise, and nothing is
// appended); a nil b is ErrArgument. A well-known name is appended as its
// atom. ValidateMetadata checks the name's characters.
func AppendBinary(b *mdelem.Batch, scratch []byte, name string, value []byte) ([]byte, error) {
	if !IsBinary(name) {
		return scratch, &FieldError{Index: -1, Name: name, Offset: -1, Reason: "does not end in -bin", Err: ErrName}
	}
	if b == nil {
		return scratch, errNilBatch()
	}
	scratch = base64.RawStdEncoding.AppendEncode(scratch[:0], value)
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

// checkBase64 reports, without decoding, whether DecodeBinary accepts v
// (a v without CR or LF): -1, or the first offending byte's offset and
// the reason. TestCheckBase64 holds it to encoding/base64.
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
