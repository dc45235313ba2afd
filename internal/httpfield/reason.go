// Package httpfield holds the rules of HTTP/2 field names, values and
// pseudo-header fields (RFC 9113 §8.2 and §8.3) that the adapters and the
// static tier share, each written once. The checks that can fail in more
// than one way report a Reason, which each adapter maps to its own error.
package httpfield

// Reason is the rule a field broke, or OK.
type Reason uint8

// The reasons.
const (
	OK                 Reason = iota
	InvalidName               // a name that ValidName refuses
	InvalidValue              // a value byte that ValidValue refuses
	PseudoAfterRegular        // a pseudo-header field after a regular one
	UnknownPseudo             // a pseudo-header field the section may not have
	DuplicatePseudo           // a pseudo-header field seen before in the section
	NumReasons
)
