package qpack

import (
	"errors"
	"fmt"
	"io"

	"github.com/metapack/metapack/internal/hcode"
	mqpack "github.com/metapack/metapack/qpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// An invalidIndexError is a static table index past the table's end.
type invalidIndexError int

func (e invalidIndexError) Error() string {
	return fmt.Sprintf("invalid indexed representation index %d", int(e))
}

// The errors of quic-go/qpack, with its messages, beside io.ErrUnexpectedEOF
// and x/net's ErrInvalidHuffman, which it returns too. errors.Is finds
// them in what a DecodeFunc returns.
var (
	errNoDynamicTable  = errors.New("no dynamic table")
	errVarintOverflow  = errors.New("varint integer overflow")
	errRequiredInserts = errors.New("expected Required Insert Count to be zero")
	errBase            = errors.New("expected Base to be zero")
)

// checkBase rejects a section whose Required Insert Count is 0 and whose
// Delta Base is not, which quic-go/qpack refuses and RFC 9204 allows.
func checkBase(p []byte) error {
	if len(p) < 2 || p[0] != 0 {
		return nil
	}
	delta, _, res := hcode.ReadInt(p[1:], 7, hcode.MaxInt62)
	if res == hcode.IntOK && delta != 0 {
		return errBase
	}
	return nil
}

// quicgoError turns an error of metapack's qpack Decoder on section p into
// the one quic-go/qpack returns for the same bytes. quic-go/qpack refuses
// a field line that needs a dynamic table by its first byte, before
// reading its integer; metapack's Decoder reports every field-line error
// at the line's first byte, so that byte tells.
func quicgoError(p []byte, err error) error {
	var e *mqpack.Error
	if !errors.As(err, &e) {
		return err
	}
	if e.Offset >= int64(prefixLen(p)) && e.Offset < int64(len(p)) {
		switch b := p[e.Offset]; {
		case b&0xc0 == 0x80, b&0xd0 == 0x40: // Indexed or Name Reference, dynamic (T=0)
			return errNoDynamicTable
		case b&0xe0 == 0: // the two post-base forms
			return fmt.Errorf("unexpected type byte: %#x", b)
		}
	}
	switch e.Err {
	case mqpack.ErrTruncated:
		return io.ErrUnexpectedEOF
	case mqpack.ErrIntegerOverflow:
		return errVarintOverflow
	case mqpack.ErrInvalidHuffman:
		return xhpack.ErrInvalidHuffman
	case mqpack.ErrRequiredInserts:
		return errRequiredInserts
	case mqpack.ErrBase:
		return errBase
	case mqpack.ErrInvalidStaticIndex:
		return invalidIndexError(e.Limit)
	}
	return err
}

// prefixLen returns the length of section p's prefix, the Required Insert
// Count and the Base, or len(p) when p ends inside it.
func prefixLen(p []byte) int {
	_, n, res := hcode.ReadInt(p, 8, hcode.MaxInt62)
	if res != hcode.IntOK {
		return len(p)
	}
	_, m, res := hcode.ReadInt(p[n:], 7, hcode.MaxInt62)
	if res != hcode.IntOK {
		return len(p)
	}
	return n + m
}
