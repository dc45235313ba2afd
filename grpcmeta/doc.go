// Package grpcmeta checks the request metadata a gRPC-style HTTP/2 server
// receives. Decode a request's header block into an mdelem.Batch, then
// call [ValidateRequest] before using it: it enforces what RFC 9113 §8.2
// and §8.3.1 require of a request (pseudo-headers first, once each, the
// required ones present, lowercase names, no connection-specific headers,
// te only "trailers"), and returns a [*FieldError] naming the field that
// broke a rule, which wraps one of the Err sentinels. [ParseTimeout] reads
// the grpc-timeout header's value ("100m", "5S") as a time.Duration.
//
// The package adds gRPC's rules on top of package mdelem, which stays
// protocol-neutral: it imports only mdelem, intern, staticdata and the
// standard library.
package grpcmeta
