package grpcmeta

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// Value is a well-known key's value in typed form: what content-type,
// te, grpc-encoding, grpc-accept-encoding, grpc-status and :status say,
// each read by the method for that key. ValueOf parses a value that is an
// atom once and finds it again by the atom's pointer, as gRPC core's
// metadata traits memoize, so checking content-type or grpc-encoding of
// an interned value costs a lookup, not a parse. The zero Value is the
// value of none of them ("").
type Value struct{ bits uint64 }

// The bits of a Value.
const (
	vStatusMask   = 1<<32 - 1 // grpc-status, when vStatusOK
	vStatusOK     = 1 << 32
	vCTShift      = 33 // ContentType, 3 bits
	vCodingShift  = 36 // Coding, 3 bits
	vCodingsShift = 40 // CodingSet, 8 bits
	vTrailers     = 1 << 48
	vHTTPShift    = 49      // :status, 10 bits: 100 to 999, or 0
	vDone         = 1 << 63 // set in staticMemo's words: the slot is filled
)

// ContentType is the value as content-type (ParseContentType).
func (v Value) ContentType() ContentType { return ContentType(v.bits >> vCTShift & 7) }

// Coding is the value as grpc-encoding or content-encoding
// (ParseEncoding).
func (v Value) Coding() Coding { return Coding(v.bits >> vCodingShift & 7) }

// Codings is the value as grpc-accept-encoding or accept-encoding
// (ParseAcceptEncoding).
func (v Value) Codings() CodingSet { return CodingSet(v.bits >> vCodingsShift) }

// Status is the value as grpc-status (ParseStatus): the code and true, or
// Unknown and false for a value that is not a decimal integer, which the
// protocol says to take for UNKNOWN.
func (v Value) Status() (Code, bool) {
	if v.bits&vStatusOK == 0 {
		return Unknown, false
	}
	return Code(v.bits & vStatusMask), true
}

// Trailers reports whether the value, as te, is "trailers".
func (v Value) Trailers() bool { return v.bits&vTrailers != 0 }

// HTTPStatus is the value as :status: three digits from 100 to 999 as a
// number, or 0.
func (v Value) HTTPStatus() int { return int(v.bits >> vHTTPShift & 1023) }

// ParseValue parses v, a string or bytes, as every well-known key's value
// at once; ValueOf does this once per atom.
func ParseValue[T ~string | ~[]byte](v T) Value {
	bits := uint64(ParseContentType(v))<<vCTShift |
		uint64(ParseEncoding(v))<<vCodingShift |
		uint64(ParseAcceptEncoding(v))<<vCodingsShift
	if _, reason := checkStatus(v); reason == "" {
		bits |= vStatusOK | decimal(v)
	}
	if string(v) == "trailers" {
		bits |= vTrailers
	}
	if len(v) == 3 && '1' <= v[0] && v[0] <= '9' && isDigit(v[1]) && isDigit(v[2]) {
		bits |= (uint64(v[0]-'0')*100 + uint64(v[1]-'0')*10 + uint64(v[2]-'0')) << vHTTPShift
	}
	return Value{bits}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ValueOf returns s, a field's value, in typed form. An atom (a static
// string, or one interned by the decoder: see hpack.Decoder.SetInterner)
// is parsed on first sight only; other bytes are parsed each time. It
// never allocates for a static atom, and for an interned one only when it
// is not in the memo.
func ValueOf(s mdelem.Str) Value {
	a := s.Atom()
	if a == nil {
		return ParseValue(s.UnsafeBytes())
	}
	if id := tier.ID((*tier.Atom)(a)); id < tier.NumAtoms {
		slot := &staticMemo[id]
		if w := slot.Load(); w != 0 {
			return Value{w &^ vDone}
		}
		v := ParseValue(tier.ByID(int(id)).String())
		slot.Store(v.bits | vDone)
		return v
	}
	return internedValue(a)
}

// staticMemo holds the static tier's values, filled on first use: the
// tier is fixed, so it needs no bound, and a race between two goroutines
// stores the same word twice.
var staticMemo [tier.NumAtoms]atomic.Uint64

// memoSlots (1<<memoBits) bounds the memo of interned atoms. Interned atoms come from
// tables that each connection's decoder owns, so their number has no
// bound of its own: the memo is a direct-mapped cache of memoSlots
// entries, each of which keeps its atom (an intern record and its string,
// at most intern.Limits.MaxLen bytes) alive until another atom takes its
// slot. A peer's new strings can evict others' entries, which then cost a
// parse and a 24-byte allocation again, never more memory than the
// slots; the slot of an atom is its hash times a multiplier drawn at
// process start, so a peer cannot aim its strings at one slot.
const memoBits = 8

const memoSlots = 1 << memoBits

type memoEntry struct {
	atom *staticdata.Atom
	bits uint64
}

var (
	internedMemo [memoSlots]atomic.Pointer[memoEntry]
	memoMul      = rand.Uint64() | 1
)

func internedValue(a *staticdata.Atom) Value {
	slot := &internedMemo[((*tier.Atom)(a).Hash()*memoMul)>>(64-memoBits)]
	if e := slot.Load(); e != nil && e.atom == a {
		return Value{e.bits}
	}
	v := ParseValue(a.String())
	slot.Store(&memoEntry{atom: a, bits: v.bits})
	return v
}
