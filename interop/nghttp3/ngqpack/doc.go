// Package ngqpack wraps the QPACK codec of nghttp3's C library
// (libnghttp3): its encoder and decoder, for differential tests of
// package qpack.
//
// The cgo code is built only with the build tag nghttp3, which needs
// libnghttp3's headers and pkg-config file (Debian: libnghttp3-dev).
// Without the tag the package holds only Field, Available and the probe
// builders, so that go vet and go test work on a machine without the
// library; the tests then skip with SkipReason.
//
// nghttp3 0.8.0 exposes no accessor for either side's dynamic table, nor
// the encoder's insert count. The decoder's table can still be read from
// outside: Probe builds a field section that references one absolute
// index, and a decoder that decodes it shows that entry (or rejects the
// section when the entry was evicted or never inserted).
//
// Byte slices cross into C as copies in C memory and strings come back as
// Go copies, so no Go pointer is ever held by C, and the package needs no
// unsafe.
package ngqpack

import "strconv"

// Field is one header field as nghttp3 sees it.
type Field struct {
	Name, Value string
	// Sensitive is NGHTTP3_NV_FLAG_NEVER_INDEX: on input to the encoder,
	// send the field as a literal with the N bit set; on output from the
	// decoder, the field arrived with the N bit.
	Sensitive bool
}

// SkipReason is the message tests skip with when the package was built
// without libnghttp3.
const SkipReason = "libnghttp3 not built in: install libnghttp3-dev and run go test -tags nghttp3 (interop/nghttp3/ci.sh does both)"

// String formats f for test messages: the quoted name and value, and
// "sensitive" when Sensitive is set.
func (f Field) String() string {
	s := strconv.Quote(f.Name) + ": " + strconv.Quote(f.Value)
	if f.Sensitive {
		s += " (sensitive)"
	}
	return s
}
