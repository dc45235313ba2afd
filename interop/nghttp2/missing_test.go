//go:build !nghttp2

package nghttp2

import (
	"testing"

	"github.com/metapack/metapack/interop/nghttp2/hd"
)

// TestNghttp2 stands in for the differential tests when the module is
// built without libnghttp2.
func TestNghttp2(t *testing.T) {
	t.Skip(hd.SkipReason)
}
