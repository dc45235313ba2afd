package grpcmeta

import (
	"strconv"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// codeUnknown is the status code UNKNOWN.
const codeUnknown = 2

// decimal returns the number that v's digits spell, for a v that
// checkStatus accepts.
func decimal[T ~string | ~[]byte](v T) uint64 {
	var c uint64
	for i := 0; i < len(v); i++ {
		c = c*10 + uint64(v[i]-'0')
	}
	return c
}

// checkStatus returns a reason for a grpc-status value that is not valid,
// with the offset it concerns (-1: the whole value), or "".
func checkStatus[T ~string | ~[]byte](v T) (int, string) {
	if len(v) == 0 {
		return -1, "empty"
	}
	var c uint64
	for i := 0; i < len(v); i++ {
		d := v[i]
		if d < '0' || d > '9' {
			return i, "not a digit"
		}
		if c = c*10 + uint64(d-'0'); c > 1<<32-1 {
			return i, "above 4294967295"
		}
	}
	return 0, ""
}

// AppendStatusTrailers appends the fields that carry a call's status to
// b, the start of the trailers (or of a Trailers-Only response, after
// :status and content-type): grpc-status, code in decimal (the codes of
// google.golang.org/grpc/codes), then grpc-message with msg
// percent-encoded as AppendMessage does, unless msg is empty. It returns
// scratch, the buffer it encoded into, for the next call to reuse; b
// copies what it needs, and codes 0 to 16 are atoms, so with a reused
// scratch and batch nothing is allocated. msg is a string or bytes; a
// nil b is ErrArgument.
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
