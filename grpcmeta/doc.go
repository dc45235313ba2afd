// Package grpcmeta reads and writes gRPC metadata on mdelem batches, as
// the gRPC over HTTP/2 protocol (PROTOCOL-HTTP2.md in grpc/grpc) defines
// it. A server decodes a header block into an mdelem.Batch, checks it,
// reads what it needs, and builds its response's blocks the same way:
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
//     Each returns a *FieldError naming the first field that broke a
//     rule, which wraps one of the Err sentinels, or, for a value, a
//     *ValueError with the offending byte and the reason.
//   - Binary metadata: BinaryValue decodes a -bin field's value, padded
//     or not, into memory the batch owns, valid until its Reset, and
//     AppendBinaryValue into a buffer the caller reuses; AppendBinary
//     appends a field with its value base64-encoded, unpadded.
//   - Status: AppendStatusTrailers appends grpc-status and the
//     percent-encoded grpc-message; ParseStatus reads grpc-status (a
//     value that is not decimal is UNKNOWN, as the protocol says);
//     AppendEncodedMessage and AppendDecodedMessage percent-encode and
//     leniently decode grpc-message.
//   - Deadlines: ParseTimeout reads grpc-timeout ("100m", "5S") as a
//     time.Duration, AppendTimeout writes one, never shorter than meant.
//   - Well-known values: ValueOf gives content-type, te, grpc-encoding,
//     grpc-accept-encoding, grpc-status and :status in typed form,
//     parsing a value that is an atom (static, or interned by the
//     decoder) once per process and finding it again by pointer.
//
// The Append functions take the buffer to append to and return it
// extended, so a caller that reuses its buffers and batches allocates
// nothing in steady state; neither do the Parse and Validate functions,
// except for the error they return. No function panics, whatever its
// arguments.
//
// The package adds gRPC's rules on top of package mdelem, which stays
// protocol-neutral: it imports only mdelem, intern, staticdata and the
// standard library.
package grpcmeta
