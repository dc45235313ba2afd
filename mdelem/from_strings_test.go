package mdelem

import (
	"testing"

	"github.com/metapack/metapack/staticdata"
)

// TestFromStringsKinds checks each side's storage: the static atom of a
// string that has one, else borrowed bytes of exactly the string; and
// that a batch takes the field as it takes From's.
func TestFromStringsKinds(t *testing.T) {
	tests := []struct {
		s    string
		kind Kind
	}{
		{":path", KindStatic},
		{"content-type", KindStatic},
		{"application/grpc", KindStatic},
		{"200", KindStatic},
		{"", KindStatic}, // the atom of ""
		{"x-tenant-id", KindBorrowed},
		{"/helloworld.Greeter/SayHello", KindBorrowed},
		{"Content-Type", KindBorrowed}, // atoms are lowercase
		{":path ", KindBorrowed},
	}
	for _, tt := range tests {
		f := FromStrings(tt.s, tt.s)
		for side, s := range []Str{f.Name, f.Value} {
			if s.Kind() != tt.kind || s.kind() != tt.kind || s.UnsafeString() != tt.s || s.Len() != len(tt.s) || !s.IsValid() {
				t.Errorf("FromStrings(%q) side %d: kind %v (stored %v), %q, len %d", tt.s, side, s.Kind(), s.kind(), s.UnsafeString(), s.Len())
			}
			if a := staticdata.Lookup(tt.s); tt.kind == KindStatic && s.Atom() != a {
				t.Errorf("FromStrings(%q) side %d: atom %p, want %p", tt.s, side, s.Atom(), a)
			}
		}
		if f.Sensitive() {
			t.Errorf("FromStrings(%q) is sensitive", tt.s)
		}
		b := NewBatch(1, 0)
		b.Append(f)
		if b.Err() != nil || b.Len() != 1 || !b.At(0).Name.EqualString(tt.s) || !b.At(0).Value.EqualString(tt.s) {
			t.Errorf("FromStrings(%q) appended: Err %v, Len %d", tt.s, b.Err(), b.Len())
		}
		if g, ok := b.GetString(tt.s); !ok || !g.Value.EqualString(tt.s) {
			t.Errorf("GetString(%q) after FromStrings: %v, %v", tt.s, g, ok)
		}
	}
}
