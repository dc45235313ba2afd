package httpfield

import (
	"fmt"
	"testing"
)

func TestPseudoOf(t *testing.T) {
	tests := []struct {
		name string
		want Pseudo
	}{
		{":method", Method},
		{":scheme", Scheme},
		{":path", Path},
		{":authority", Authority},
		{":protocol", Protocol},
		{":status", Status},
		{":Method", 0},
		{"method", 0},
		{":", 0},
		{"", 0},
		{":x-custom", 0},
		{":path ", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PseudoOf(tt.name); got != tt.want {
				t.Errorf("PseudoOf(%q) = %d, want %d", tt.name, got, tt.want)
			}
		})
	}
	if Request&Response != 0 {
		t.Errorf("Request %#x and Response %#x overlap", Request, Response)
	}
}

// regular is a step of a section that is a regular field.
const regular Pseudo = 0xff

// TestSection runs sections field by field. A step is regular or a
// pseudo-header field taken with Pseudo; every step is checked against
// the reason it must give.
func TestSection(t *testing.T) {
	type step struct {
		p    Pseudo
		want Reason
	}
	tests := []struct {
		name    string
		allowed Pseudo
		steps   []step
		seen    Pseudo
		mixed   bool
	}{
		{"empty", Request, nil, 0, false},
		{"request", Request, []step{{Method, OK}, {Scheme, OK}, {Path, OK}, {Authority, OK}, {regular, OK}, {regular, OK}}, Method | Scheme | Path | Authority, false},
		{"response", Response, []step{{Status, OK}, {regular, OK}}, Status, false},
		{"after regular", Request, []step{{Method, OK}, {regular, OK}, {Path, PseudoAfterRegular}}, Method, false},
		{"unknown after regular", Request, []step{{regular, OK}, {0, PseudoAfterRegular}}, 0, false},
		{"unknown", Request, []step{{Method, OK}, {0, UnknownPseudo}, {Path, OK}}, Method | Path, false},
		{"response in request", Request, []step{{Status, UnknownPseudo}}, 0, false},
		{"request in response", Response, []step{{Status, OK}, {Path, UnknownPseudo}}, Status, false},
		{"protocol outside allowed", Method | Scheme | Path | Authority, []step{{Protocol, UnknownPseudo}}, 0, false},
		{"duplicate", Request, []step{{Method, OK}, {Method, DuplicatePseudo}}, Method, false},
		{"duplicate status", Response, []step{{Status, OK}, {Status, DuplicatePseudo}}, Status, false},
		{"mixed", Request | Response, []step{{Method, OK}, {Status, OK}}, Method | Status, true},
		{"mixed status first", Request | Response, []step{{Status, OK}, {Protocol, OK}, {regular, OK}}, Status | Protocol, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Section
			for i, st := range tt.steps {
				var got Reason
				if st.p == regular {
					got = s.Order(false)
				} else {
					got = s.Pseudo(st.p, tt.allowed)
				}
				if got != st.want {
					t.Errorf("step %d (%#x): reason %d, want %d", i, st.p, got, st.want)
				}
			}
			if s.Seen() != tt.seen || s.Mixed() != tt.mixed {
				t.Errorf("Seen %#x, Mixed %v; want %#x, %v", s.Seen(), s.Mixed(), tt.seen, tt.mixed)
			}
		})
	}
}

// TestOrderKind checks that Order and Kind taken apart give what Pseudo
// gives: Order alone records no kind, and Kind alone does not look at the
// order.
func TestOrderKind(t *testing.T) {
	var s Section
	s.Order(false)
	if r := s.Order(true); r != PseudoAfterRegular || s.Seen() != 0 {
		t.Errorf("Order(true) after a regular field: %d, Seen %#x", r, s.Seen())
	}
	if r := s.Kind(Path, Request); r != OK || s.Seen() != Path {
		t.Errorf("Kind(Path) after a regular field: %d, Seen %#x", r, s.Seen())
	}
	if r := s.Pseudo(Method, Request); r != PseudoAfterRegular || s.Seen() != Path {
		t.Errorf("Pseudo(Method) after a regular field: %d, Seen %#x", r, s.Seen())
	}
	for p := Pseudo(1); p != 0; p <<= 1 {
		t.Run(fmt.Sprintf("p=%#x", p), func(t *testing.T) {
			var s Section
			want := OK
			if p&(Request|Response) == 0 {
				want = UnknownPseudo
			}
			if r := s.Kind(p, Request|Response); r != want {
				t.Errorf("Kind = %d, want %d", r, want)
			}
		})
	}
}
