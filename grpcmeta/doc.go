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
//   - Check: ValidateRequest and ValidateResponse enforce RFC 9113 §8.2
//     and §8.3 and gRPC's rules on a request or a response's block;
//     ValidateMetadata checks custom metadata against the grammar.
//   - Binary metadata: IsBinary, DecodeBinary, AppendBinary.
//   - Status: AppendStatusTrailers; AppendMessage and DecodeMessage
//     percent-encode and leniently decode a grpc-message value.
//   - Deadlines: ParseTimeout and AppendTimeout.
//   - Well-known values: ValueOf gives content-type, grpc-encoding,
//     grpc-accept-encoding and grpc-status in typed form, parsing an atom
//     once per process.
//
// Every error is a *FieldError: the field, the offending byte's offset,
// the reason, and one sentinel per rule, which errors.Is finds.
//
// The Append and Decode functions take the buffer to append to and
// return it extended, so a caller that reuses its buffers and batches
// allocates nothing in steady state; neither do the Parse and Validate
// functions, except for the error they return. No function panics.
//
// The package adds gRPC's rules on top of package mdelem, which stays
// protocol-neutral: it imports only mdelem, staticdata, the module's
// internal packages and the standard library.
package grpcmeta
