package http3_test

import "github.com/quic-go/quic-go/http3"

// configureQPACK gives the patched client a table for responses, which it
// does not advertise by default; the server's default is 4096 bytes.
func configureQPACK(_ *http3.Server, t *http3.Transport) {
	if t != nil {
		t.QPACKMaxTableCapacity = 4096
	}
}
