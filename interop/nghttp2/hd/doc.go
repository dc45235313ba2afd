// Package hd wraps the HPACK codec of nghttp2's C library (libnghttp2):
// its deflater (encoder) and inflater (decoder), for differential tests
// of package hpack.
//
// The cgo code is built only with the build tag nghttp2, which needs
// libnghttp2's headers and pkg-config file (Debian: libnghttp2-dev).
// Without the tag the package holds only Field and Available, so that
// go vet and go test work on a machine without the library; the tests
// then skip with SkipReason.
//
// Strings cross into C as copies in C memory and come back as Go copies,
// so no Go pointer is ever held by C, and the package needs no unsafe.
package hd

import "strconv"

// Field is one header field as nghttp2 sees it.
type Field struct {
	Name, Value string
	// NoIndex is NGHTTP2_NV_FLAG_NO_INDEX: on input to the deflater, send
	// the field as a never-indexed literal; on output from the inflater,
	// the field arrived as one.
	NoIndex bool
}

// SkipReason is the message tests skip with when the package was built
// without libnghttp2.
const SkipReason = "libnghttp2 not built in: install libnghttp2-dev and run go test -tags nghttp2 (interop/nghttp2/ci.sh does both)"

// String formats f for test messages: the quoted name and value, and
// "never-indexed" when NoIndex is set.
func (f Field) String() string {
	s := strconv.Quote(f.Name) + ": " + strconv.Quote(f.Value)
	if f.NoIndex {
		s += " (never-indexed)"
	}
	return s
}
