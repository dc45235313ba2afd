//go:build !nghttp3

package ngqpack

import "testing"

// TestNghttp3 stands in for the package's tests when it is built without
// libnghttp3.
func TestNghttp3(t *testing.T) {
	if Available {
		t.Fatal("Available is true without the nghttp3 build tag")
	}
	t.Skip(SkipReason)
}
