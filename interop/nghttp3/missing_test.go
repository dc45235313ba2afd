//go:build !nghttp3

package nghttp3

import (
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
)

// TestNghttp3 stands in for the differential tests when the module is
// built without libnghttp3.
func TestNghttp3(t *testing.T) {
	t.Skip(ngqpack.SkipReason)
}
