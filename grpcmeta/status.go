package grpcmeta

import (
	"strconv"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

const codeUnknown = 2 // the status code UNKNOWN

// parseStatus returns the code a grpc-status value spells, or a reason
// and the offset it concerns (-1: the whole value).
func parseStatus[T ~string | ~[]byte](v T) (code uint64, off int, reason string) {
	if len(v) == 0 {
		return 0, -1, "empty"
	}
	for i := 0; i < len(v); i++ {
		d := v[i]
		if d < '0' || d > '9' {
			return 0, i, "not a digit"
		}
		if code = code*10 + uint64(d-'0'); code > 1<<32-1 {
			return 0, i, "above 4294967295"
		}
	}
	return code, 0, ""
}

// AppendStatusTrailers appends a call's status to b, the start of the
// trailers (or of a Trailers-Only response, after :status and
// content-type): grpc-status, code in decimal, then, unless msg is
// empty, grpc-message with msg percent-encoded as AppendMessage does. It
// returns scratch, the buffer it encoded into, for the next call to
// reuse; with a reused scratch and batch nothing is allocated. A nil b is
// ErrArgument.
func AppendStatusTrailers[T ~string | ~[]byte](b *mdelem.Batch, scratch []byte, code uint32, msg T) ([]byte, error) {
	if b == nil {
		return scratch, errNilBatch()
	}
	scratch = strconv.AppendUint(scratch[:0], uint64(code), 10)
	if a := staticdata.Lookup(scratch); a != nil {
		b.Append(mdelem.From(staticdata.KeyGrpcStatus.Atom(), a))
	} else {
		b.Append(mdelem.From(staticdata.KeyGrpcStatus.Atom(), mdelem.Borrowed(scratch)))
	}
	if len(msg) > 0 {
		scratch = AppendMessage(scratch[:0], msg)
		b.Append(mdelem.From(staticdata.KeyGrpcMessage.Atom(), mdelem.Borrowed(scratch)))
	}
	return scratch, nil
}
