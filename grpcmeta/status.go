package grpcmeta

import (
	"strconv"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// Code is a gRPC status code, the value of grpc-status.
type Code uint32

// The status codes gRPC defines.
const (
	OK                 Code = 0
	Canceled           Code = 1
	Unknown            Code = 2
	InvalidArgument    Code = 3
	DeadlineExceeded   Code = 4
	NotFound           Code = 5
	AlreadyExists      Code = 6
	PermissionDenied   Code = 7
	ResourceExhausted  Code = 8
	FailedPrecondition Code = 9
	Aborted            Code = 10
	OutOfRange         Code = 11
	Unimplemented      Code = 12
	Internal           Code = 13
	Unavailable        Code = 14
	DataLoss           Code = 15
	Unauthenticated    Code = 16
)

var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
	"FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
	"INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
}

// String returns the code's name as the protocol documents spell it
// ("DEADLINE_EXCEEDED"), or "CODE(n)" for a code gRPC does not define.
func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "CODE(" + strconv.FormatUint(uint64(c), 10) + ")"
}

// ParseStatus parses a grpc-status value, 1*DIGIT, into a code; v is a
// string or bytes. Leading zeros are accepted, codes gRPC does not define
// too (up to 2^32-1). A value that is not a decimal integer is a
// *ValueError wrapping ErrBadStatus, and the code returned with it is
// Unknown: the protocol has a client treat such a response as UNKNOWN, so
// a caller may use the code and only log the error. It does not allocate
// unless it fails.
func ParseStatus[T ~string | ~[]byte](v T) (Code, error) {
	if off, reason := checkStatus(v); reason != "" {
		return Unknown, &ValueError{Name: "grpc-status", Offset: off, Reason: reason, Err: ErrBadStatus}
	}
	return Code(decimal(v)), nil
}

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

// AppendStatus appends c as a grpc-status value, decimal without leading
// zeros, and returns the extended buffer.
func AppendStatus(dst []byte, c Code) []byte {
	return strconv.AppendUint(dst, uint64(c), 10)
}

// AppendStatusTrailers appends the fields that carry a call's status to
// b, the start of the trailers (or of a Trailers-Only response, after
// :status and content-type): grpc-status, then grpc-message with msg
// percent-encoded, unless msg is empty. It returns scratch, the buffer it
// encoded into, for the next call to reuse; b copies what it needs, and
// codes 0 to 16 are atoms, so with a reused scratch and batch nothing is
// allocated. msg is a string or bytes.
func AppendStatusTrailers[T ~string | ~[]byte](b *mdelem.Batch, scratch []byte, c Code, msg T) ([]byte, error) {
	if b == nil {
		return scratch, ErrNilBatch
	}
	scratch = AppendStatus(scratch[:0], c)
	if a := staticdata.Lookup(scratch); a != nil {
		b.Append(mdelem.From(staticdata.KeyGrpcStatus.Atom(), a))
	} else {
		b.Append(mdelem.From(staticdata.KeyGrpcStatus.Atom(), mdelem.Borrowed(scratch)))
	}
	if len(msg) > 0 {
		scratch = AppendEncodedMessage(scratch[:0], msg)
		b.Append(mdelem.From(staticdata.KeyGrpcMessage.Atom(), mdelem.Borrowed(scratch)))
	}
	return scratch, nil
}
