package mdelem

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/http2/hpack"
)

func TestXnetRoundTrip(t *testing.T) {
	in := []hpack.HeaderField{
		{Name: ":method", Value: "POST"},
		{Name: ":path", Value: "/pkg.String()/M"},
		{Name: "authorization", Value: "Bearer t", Sensitive: true},
		{Name: "x-custom", Value: ""},
		{Name: "content-type", Value: "application/grpc"},
	}
	b := NewBatch(0, 0)
	AppendFromXnet(b, in)
	if !b.At(2).Sensitive() || b.At(0).Sensitive() {
		t.Error("Sensitive did not map to the never-index flag")
	}
	out := AppendXnet(nil, b)
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("round trip differs (-in +out):\n%s", diff)
	}
}
