// Package grpcmeta reads and writes gRPC metadata on mdelem batches, as
// the gRPC over HTTP/2 protocol (PROTOCOL-HTTP2.md in grpc/grpc) defines
// it. A server decodes a header block into an mdelem.Batch, checks it,
// reads what it needs, and builds its response's blocks the same way.
//
// Names say which way data goes: an Append function encodes (onto a
// buffer or a batch), a Decode function decodes a field's value into a
// buffer, a Parse function reads a value into a Go type, and a Validate
// function checks a batch.
//
//   - Check: ValidateRequest enforces RFC 9113 §8.2 and §8.3.1 on a
//     request (pseudo-headers first, once each, the required ones
//     present, lowercase names, no connection-specific headers, te only
//     "trailers"); ValidateResponse does the same for a response's
//     headers, trailers or Trailers-Only block (:status 200, a gRPC
//     content-type, grpc-status present and decimal, grpc-message only
//     with it, no pseudo-headers in trailers); ValidateMetadata checks
//     custom metadata against the grammar (names of 0-9 a-z _ - ., ASCII
//     values 0x20-0x7E, base64 -bin values, "grpc-" names reserved).
//   - Binary metadata: IsBinary tells a -bin name; DecodeBinary decodes
//     a -bin field's value, padded or not, into a buffer the caller
//     reuses; AppendBinary appends a field with its value
//     base64-encoded, unpadded.
//   - Status: AppendStatusTrailers appends grpc-status and the
//     percent-encoded grpc-message; AppendMessage and DecodeMessage
//     percent-encode and leniently decode a grpc-message value.
//   - Deadlines: ParseTimeout reads grpc-timeout ("100m", "5S") as a
//     time.Duration, AppendTimeout writes one, never shorter than meant.
//   - Well-known values: ValueOf gives content-type, grpc-encoding,
//     grpc-accept-encoding and grpc-status in typed form (a value that is
//     not decimal is UNKNOWN, as the protocol says), parsing a value that
//     is an atom (static, or interned by the decoder) once per process
//     and finding it again by pointer.
//
// Every error is a *FieldError: the field (its index in the batch, or -1
// for a missing one or a bare value, and its name), the offending byte's
// offset, the reason, and one sentinel per rule (ErrPseudoHeader,
// ErrName, ErrConnectionHeader, ErrValue, ErrContentType, ErrStatus,
// ErrArgument), which errors.Is finds.
//
// The Append and Decode functions take the buffer to append to and
// return it extended, so a caller that reuses its buffers and batches
// allocates nothing in steady state; neither do the Parse and Validate
// functions, except for the error they return. No function panics,
// whatever its arguments.
//
// The package adds gRPC's rules on top of package mdelem, which stays
// protocol-neutral: it imports only mdelem, staticdata, the module's
// internal packages and the standard library.
package grpcmeta
