package httpfield

// Pseudo is a set of pseudo-header fields, a bit each.
type Pseudo uint8

// The pseudo-header fields of RFC 9113 §8.3 and RFC 8441's :protocol.
const (
	Method Pseudo = 1 << iota
	Scheme
	Path
	Authority
	Protocol
	Status
	Request  = Method | Scheme | Path | Authority | Protocol // a request's
	Response = Status                                        // a response's
)

// PseudoOf returns the pseudo-header field named name, or 0 for a name
// that is none of them.
func PseudoOf(name string) Pseudo {
	switch name {
	case ":method":
		return Method
	case ":scheme":
		return Scheme
	case ":path":
		return Path
	case ":authority":
		return Authority
	case ":protocol":
		return Protocol
	case ":status":
		return Status
	}
	return 0
}

// Section checks the pseudo-header fields of a field section (RFC 9113
// §8.3) as its fields come: they come before the regular fields, each at
// most once. The zero Section is one before its first field.
type Section struct {
	seen    Pseudo
	regular bool
}

// Order takes the next field of the section, a pseudo-header field or a
// regular one, and returns PseudoAfterRegular for a pseudo-header field
// after a regular one, else OK.
func (s *Section) Order(pseudo bool) Reason {
	if !pseudo {
		s.regular = true
	} else if s.regular {
		return PseudoAfterRegular
	}
	return OK
}

// Kind records the pseudo-header field p (0 for an unknown one) and
// returns UnknownPseudo when allowed does not have it, DuplicatePseudo
// when the section had it before, else OK.
func (s *Section) Kind(p, allowed Pseudo) Reason {
	switch {
	case p&allowed == 0:
		return UnknownPseudo
	case s.seen&p != 0:
		return DuplicatePseudo
	}
	s.seen |= p
	return OK
}

// Pseudo takes the next field of the section, the pseudo-header field p,
// with Order and then, if it is in order, Kind.
func (s *Section) Pseudo(p, allowed Pseudo) Reason {
	if r := s.Order(true); r != OK {
		return r
	}
	return s.Kind(p, allowed)
}

// Seen returns the pseudo-header fields the section has had.
func (s *Section) Seen() Pseudo { return s.seen }

// Mixed reports whether the section has had both request and response
// pseudo-header fields.
func (s *Section) Mixed() bool { return s.seen&Request != 0 && s.seen&Response != 0 }
