//go:build !nghttp2

package hd

import "testing"

// TestNghttp2 stands in for the package's tests when it is built without
// libnghttp2.
func TestNghttp2(t *testing.T) {
	if Available {
		t.Fatal("Available is true without the nghttp2 build tag")
	}
	t.Skip(SkipReason)
}
