package grpcmeta

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// Value is a well-known key's value in typed form: what content-type,
// grpc-encoding, grpc-accept-encoding and grpc-status say, each read by
// the method for that key. The zero Value is the value "".
type Value struct{ bits uint64 }

// The bits of a Value.
const (
	vStatusMask   = 1<<32 - 1 // grpc-status, when vStatusOK
	vStatusOK     = 1 << 32
	vCTShift      = 33      // ContentType, 3 bits
	vCodingShift  = 36      // Coding, 3 bits
	vCodingsShift = 40      // the set of Codings, 8 bits
	vDone         = 1 << 63 // set in staticMemo's words: the slot is filled
)

// ContentType is the value as content-type.
func (v Value) ContentType() ContentType { return ContentType(v.bits >> vCTShift & 7) }

// Coding is the value as grpc-encoding or content-encoding.
func (v Value) Coding() Coding { return Coding(v.bits >> vCodingShift & 7) }

// Accepts reports whether the value, as grpc-accept-encoding or
// accept-encoding (a ',' list), names c; CodingOther stands for any
// coding that is none of the others.
func (v Value) Accepts(c Coding) bool { return c < 8 && (v.bits>>vCodingsShift)&(1<<c) != 0 }

// Status is the value as grpc-status, a decimal up to 2^32-1: the code
// and true, or UNKNOWN (2) and false for any other value, as the
// protocol says.
func (v Value) Status() (uint32, bool) {
	if v.bits&vStatusOK == 0 {
		return codeUnknown, false
	}
	return uint32(v.bits & vStatusMask), true
}

// parseValue parses v as every well-known key's value at once.
func parseValue[T ~string | ~[]byte](v T) Value {
	bits := uint64(parseContentType(v))<<vCTShift |
		uint64(parseEncoding(v))<<vCodingShift |
		uint64(parseAcceptEncoding(v))<<vCodingsShift
	if code, _, reason := parseStatus(v); reason == "" {
		bits |= vStatusOK | code
	}
	return Value{bits}
}

// ValueOf returns s, a field's value, in typed form; for a string or
// bytes v, pass mdelem.StrOf(mdelem.BorrowString(v)) or
// mdelem.StrOf(mdelem.Borrowed(v)). An atom (static, or interned by the
// decoder: see hpack.Decoder.SetInterner) is parsed on first sight only
// and found again by its pointer, as gRPC core's metadata traits
// memoize; other bytes are parsed each time. It allocates only for an
// interned atom that is not in the memo.
func ValueOf(s mdelem.Str) Value {
	a := s.Atom()
	if a == nil {
		return parseValue(s.UnsafeBytes())
	}
	if id := tier.ID(a); id < tier.NumAtoms {
		slot := &staticMemo[id]
		if w := slot.Load(); w != 0 {
			return Value{w &^ vDone}
		}
		v := parseValue(tier.ByID(int(id)).String())
		slot.Store(v.bits | vDone)
		return v
	}
	return internedValue(a)
}

// staticMemo holds the static tier's values, filled on first use; a race
// stores the same word twice.
var staticMemo [tier.NumAtoms]atomic.Uint64

// The memo of interned atoms, whose number has no bound (each
// connection's decoder has its own table), is a direct-mapped cache of
// memoSlots entries, each keeping its atom alive until another takes its
// slot: a peer's new strings can evict others', which then cost a parse
// and a 24-byte allocation again, never more memory. An atom's slot is
// its hash times a multiplier drawn at process start, so a peer cannot
// aim its strings at one slot.
const (
	memoBits  = 8
	memoSlots = 1 << memoBits
)

type memoEntry struct {
	atom *staticdata.Atom
	bits uint64
}

var (
	internedMemo [memoSlots]atomic.Pointer[memoEntry]
	memoMul      = rand.Uint64() | 1
)

func internedValue(a *staticdata.Atom) Value {
	slot := &internedMemo[(tier.Hash(a)*memoMul)>>(64-memoBits)]
	if e := slot.Load(); e != nil && e.atom == a {
		return Value{e.bits}
	}
	v := parseValue(a.String())
	slot.Store(&memoEntry{atom: a, bits: v.bits})
	return v
}
